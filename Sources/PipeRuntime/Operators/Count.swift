import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `count`: prints how many elements came, when the input ends.
  enum Count {
    static func run() -> Run {
      .sink(
        { input in
          Tally()
        })
    }

    /// Counts what comes and prints the count when the input finishes.
    struct Tally: SynchronousSinkBody {
      var count = 0

      mutating func take(_ value: Value, _ output: SinkOutput) -> Bool {
        count += 1
        return true
      }

      func end(_ how: SinkEnd, _ output: SinkOutput) {
        if how == .finished { output.emit(.int(count)) }
      }
    }
  }
}
