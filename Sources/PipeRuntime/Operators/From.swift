import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `from`: emits the given values, in order, and finishes.
  enum From {
    static let entry = Operator(
      OperatorSignature(
        "from", .source, usage: "from V…", summary: "emits the given values, in order, and finishes",
        parameters: [.positional("values", .value, repeats: true, "numbers, strings, Bools, nil, arrays or tuples")],
        example: "from 1 2 3", implementation: "[V].async"
      ) { typing in
        guard let type = typing.type(of: "values") else {
          typing.error("give at least one value, as in 'from 1 2 3'")
          return nil
        }
        return type
      },
      build: { input in
        ValueSequence(try input.values("values").async)
      },
      fusedSource: { input in .values(try input.values("values")) })
  }
}
