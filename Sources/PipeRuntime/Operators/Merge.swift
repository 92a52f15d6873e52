import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `merge`: emits the elements of all inputs as they come.
  enum Merge {
    static func run() -> Run {
      .node(
        build: { input in try all(input.unifiedInputs, input) })
    }

    /// swift-async-algorithms' merge of two or three, nested beyond.
    static func all(_ inputs: [ValueSequence], _ input: StageInput) throws(PipelineError) -> ValueSequence {
      switch inputs.count {
      case 2: return ValueSequence(merge(inputs[0], inputs[1]))
      case 3: return ValueSequence(merge(inputs[0], inputs[1], inputs[2]))
      case 4...: return ValueSequence(merge(inputs[0], inputs[1], try all(Array(inputs[2...]), input)))
      default: throw input.bug("\(inputs.count) inputs for merge")
      }
    }
  }
}
