import AsyncAlgorithms
import Foundation

extension Int {
  fileprivate func negated() throws -> Int {
    let (result, overflow) = Int(0).subtractingReportingOverflow(self)
    guard !overflow else { throw ArithmeticError("integer overflow in -\(self)") }
    return result
  }
}
