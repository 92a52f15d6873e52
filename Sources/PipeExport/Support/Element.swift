import AsyncAlgorithms
import Foundation

extension Array {
  /// `array[i]`, an error where i is out of range.
  fileprivate func element(at index: Int) throws -> Element {
    guard indices.contains(index) else {
      throw ArithmeticError("index \(index) out of range for an array of \(count)")
    }
    return self[index]
  }
}
