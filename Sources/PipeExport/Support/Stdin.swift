import AsyncAlgorithms
import Foundation

/// pipesh's `stdin`: the lines of standard input.
func standardInputLines() -> AsyncStream<String> {
  AsyncStream { readLine() }
}
