import AsyncAlgorithms
import Foundation

/// An error of one stage: `map { 10 / $0 }`, `division by zero`.
struct StageError: Error {
  let stage: String
  let message: String
}
