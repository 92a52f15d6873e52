import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `last`: prints the last element (nil for none), when the input ends.
  enum Last {
    static func run() -> Run {
      .sink(
        { input in
          Reduction(result: .none) { _, value in (value, true) }
        })
    }
  }
}
