import AsyncAlgorithms
import Foundation

extension Int {
  fileprivate func subtracting(_ other: Int) throws -> Int {
    let (result, overflow) = subtractingReportingOverflow(other)
    guard !overflow else { throw ArithmeticError("integer overflow in \(self) - \(other)") }
    return result
  }
}
