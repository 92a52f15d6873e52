import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `print`: prints every element (added when a pipeline ends without a sink).
  enum Print {
    static let entry = Operator(
      OperatorSignature(
        "print", .sink, usage: "print [label: S] [time: Bool]",
        summary: "prints every element (added when a pipeline ends without a sink)",
        parameters: [
          .labelled("label", .string, "a prefix, printed as 'label: value'"),
          .labelled("time", .bool, "prefix the time on the session's clock, as +1.500s"),
        ],
        example: "timer 0.5 | take 2 | print time: true", implementation: "own sink", typing: Typing.same),
      sink: { input in
        let label = input.optionalString("label").map { "\($0): " } ?? ""
        let time = input.optionalBool("time") ?? false
        let context = input.context
        return ForEach { value, output in
          let stamp = time ? context.sessionTime.stampText + " " : ""
          output.emit(value, text: stamp + label + value.printed)
        }
      })
  }
}
