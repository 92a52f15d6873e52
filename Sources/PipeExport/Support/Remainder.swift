import AsyncAlgorithms
import Foundation

extension Int {
  fileprivate func remainder(dividingBy other: Int) throws -> Int {
    guard other != 0 else { throw ArithmeticError("division by zero") }
    let (result, overflow) = remainderReportingOverflow(dividingBy: other)
    guard !overflow else { throw ArithmeticError("integer overflow in \(self) % \(other)") }
    return result
  }
}
