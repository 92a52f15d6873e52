import AsyncAlgorithms
import Foundation

extension Int {
  fileprivate func divided(by other: Int) throws -> Int {
    guard other != 0 else { throw ArithmeticError("division by zero") }
    let (result, overflow) = dividedReportingOverflow(by: other)
    guard !overflow else { throw ArithmeticError("integer overflow in \(self) / \(other)") }
    return result
  }
}
