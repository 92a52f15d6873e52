import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `chain`: emits all of the first input, then all of the next….
  enum Chain {
    static let entry = Operator(
      OperatorSignature(
        "chain", .combinator, usage: "chain(P, P, …)", summary: "emits all of the first input, then all of the next…",
        inputs: 2...16, example: "chain(from 1 2, from 3 4)", implementation: "chain (nested beyond three)",
        typing: Typing.unifiedInputs),
      build: { input in try all(input.unifiedInputs, input) })

    /// swift-async-algorithms' chain of two or three, nested beyond.
    static func all(_ inputs: [ValueSequence], _ input: StageInput) throws(PipelineError) -> ValueSequence {
      switch inputs.count {
      case 2: return ValueSequence(chain(inputs[0], inputs[1]))
      case 3: return ValueSequence(chain(inputs[0], inputs[1], inputs[2]))
      case 4...: return ValueSequence(chain(inputs[0], inputs[1], try all(Array(inputs[2...]), input)))
      default: throw input.bug("\(inputs.count) inputs for chain")
      }
    }
  }
}
