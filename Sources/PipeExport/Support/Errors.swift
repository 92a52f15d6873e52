import AsyncAlgorithms
import Foundation

/// An error of one stage: `map { 10 / $0 }`, `division by zero`.
struct StageError: Error, CustomStringConvertible {
  let stage: String
  let message: String
  var description: String { "\(stage): \(message)" }
}

/// The error a channel is ended with by `fail NAME "MESSAGE"`.
struct ChannelFailure: Error, CustomStringConvertible {
  let description: String
}
