import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `interspersed`: emits V between each two elements.
  enum Interspersed {
    static let entry = Operator(
      OperatorSignature(
        "interspersed", .operator, usage: "interspersed V", summary: "emits V between each two elements",
        parameters: [.positional("separator", .value, "a value of the element type")],
        example: "from 1 2 3 | interspersed 0", implementation: "interspersed(with:)"
      ) { typing in
        guard let type = typing.type(of: "separator") else { return nil }
        guard let joined = ValueType.join(typing.input, type), joined == typing.input || typing.input == .never else {
          typing.error("the separator is '\(type)' but the elements are '\(typing.input)'", at: "separator")
          return nil
        }
        return typing.input == .never ? type : typing.input
      },
      build: { input in ValueSequence(input.upstream.interspersed(with: try input.value("separator"))) })
  }
}
