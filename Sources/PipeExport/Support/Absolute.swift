import AsyncAlgorithms
import Foundation

extension Int {
  fileprivate func absolute() throws -> Int {
    guard self != .min else { throw ArithmeticError("integer overflow in abs(\(self))") }
    return abs(self)
  }
}
