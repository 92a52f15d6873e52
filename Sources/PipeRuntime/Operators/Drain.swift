import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `drain`: consumes every element silently.
  enum Drain {
    static func run() -> Run {
      .sink(
        { input in
          ForEach { _, _ in }
        })
    }
  }
}
