import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `collect`: prints all elements as one array, when the input ends.
  enum Collect {
    static func run() -> Run {
      .sink(
        { input in
          Collecting()
        })
    }

    /// Keeps every element and prints them as one array when the input finishes.
    struct Collecting: SynchronousSinkBody {
      var values: [Value] = []

      mutating func take(_ value: Value, _ output: SinkOutput) -> Bool {
        values.append(value)
        return true
      }

      func end(_ how: SinkEnd, _ output: SinkOutput) {
        if how == .finished { output.emit(.array(values)) }
      }
    }
  }
}
