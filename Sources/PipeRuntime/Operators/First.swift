import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `first`: prints the first element (nil for none) and stops its input.
  enum First {
    static func run() -> Run {
      .sink(
        { input in
          Reduction(result: .none) { _, value in (value, false) }
        })
    }
  }
}
