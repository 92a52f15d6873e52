import AsyncAlgorithms
import Foundation

extension Int {
  fileprivate func adding(_ other: Int) throws -> Int {
    let (result, overflow) = addingReportingOverflow(other)
    guard !overflow else { throw ArithmeticError("integer overflow in \(self) + \(other)") }
    return result
  }
}
