import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `compacted`: drops nil elements and unwraps the rest.
  enum Compacted {
    static let entry = Operator(
      OperatorSignature(
        "compacted", .operator, usage: "compacted", summary: "drops nil elements and unwraps the rest",
        example: "from 1 nil 3 | compacted", implementation: "compacted()"
      ) { typing in
        guard typing.input.isOptional else {
          typing.error("its input must be optional, but it is '\(typing.input)'")
          return nil
        }
        return typing.input.unwrapped
      },
      build: { input in
        ValueSequence(input.upstream.map { $0 == .none ? nil : $0 }.compacted())
      })
  }
}
