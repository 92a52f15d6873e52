import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `collect`: prints all elements as one array, when the input ends.
  enum Collect {
    static let entry = Operator(
      OperatorSignature(
        "collect", .sink, usage: "collect", summary: "prints all elements as one array, when the input ends",
        example: "range 1 5 | collect", implementation: "own sink"
      ) { typing in
        .array(typing.input)
      },
      sink: { input in
        Collecting()
      })

    /// Keeps every element and prints them as one array when the input finishes.
    struct Collecting: SinkBody {
      var values: [Value] = []

      mutating func receive(_ value: Value, _ output: SinkOutput) -> Bool {
        values.append(value)
        return true
      }

      func end(_ how: SinkEnd, _ output: SinkOutput) {
        if how == .finished { output.emit(.array(values)) }
      }
    }
  }
}
