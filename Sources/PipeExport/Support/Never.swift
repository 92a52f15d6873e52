import AsyncAlgorithms
import Foundation

/// pipesh's `never`: no element, and no end until cancelled.
func neverEnding<Element>(of type: Element.Type) -> AsyncStream<Element> {
  AsyncStream { _ in }
}
