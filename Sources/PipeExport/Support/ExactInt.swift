import AsyncAlgorithms
import Foundation

extension Double {
  /// `int(x)`: the Int toward zero, an error where there is none.
  fileprivate func exactInt() throws -> Int {
    guard let exact = Int(exactly: rounded(.towardZero)) else {
      throw ArithmeticError("\(self) does not fit in an Int")
    }
    return exact
  }
}
