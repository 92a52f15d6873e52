import AsyncAlgorithms
import Foundation

/// pipesh's `fail "MESSAGE"`: no element, and the error.
func failed<Element>(
  as type: Element.Type, _ error: StageError
) -> AsyncThrowingStream<Element, Error> {
  AsyncThrowingStream { $0.finish(throwing: error) }
}
