import AsyncAlgorithms
import Foundation

extension Int {
  fileprivate func multiplied(by other: Int) throws -> Int {
    let (result, overflow) = multipliedReportingOverflow(by: other)
    guard !overflow else { throw ArithmeticError("integer overflow in \(self) * \(other)") }
    return result
  }
}
