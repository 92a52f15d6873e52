import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `range`: emits A through B inclusive, by steps of S (default 1).
  enum RangeSource {
    static func run(from: Value, through: Value, by: Value) -> Run {
      .node(
        build: { input in
          switch try bounds(from, through, by, input) {
          case .integers(let from, let through, let by):
            return ValueSequence(Elements(stride: stride(from: from, through: through, by: by), make: Value.int).async)
          case .numbers(let from, let through, let by):
            return ValueSequence(
              Elements(stride: stride(from: from, through: through, by: by), make: Value.double).async)
          }
        },
        fusedSource: { input in
          guard case .integers(let from, let through, let by) = try bounds(from, through, by, input) else { return nil }
          return .integers(from: from, through: through, by: by)
        })
    }

    /// The stride's values, made one at a time. (A `.lazy.map` of the stride is not `Sendable`,
    /// and in a throwing closure resolved to the eager `Sequence.map`: an array of every element
    /// was built before the first.)
    struct Elements<Bound: Strideable & Sendable>: Sequence, Sendable where Bound.Stride: Sendable {
      let stride: StrideThrough<Bound>
      let make: @Sendable (Bound) -> Value

      func makeIterator() -> Iterator { Iterator(base: stride.makeIterator(), make: make) }

      struct Iterator: IteratorProtocol {
        var base: StrideThroughIterator<Bound>
        let make: @Sendable (Bound) -> Value

        mutating func next() -> Value? { base.next().map(make) }
      }
    }

    /// Integers when A, B and S all are; Doubles otherwise.
    enum Bounds {
      case integers(Int, Int, Int)
      case numbers(Double, Double, Double)
    }

    static func bounds(
      _ from: Value, _ through: Value, _ by: Value, _ input: StageInput
    ) throws(PipelineError)
      -> Bounds
    {
      if case .int(let a) = from, case .int(let b) = through, case .int(let step) = by {
        return .integers(a, b, step)
      }
      return .numbers(try double(from, input), try double(through, input), try double(by, input))
    }

    private static func double(_ value: Value, _ input: StageInput) throws(PipelineError) -> Double {
      switch value {
      case .int(let number): return Double(number)
      case .double(let number): return number
      default:
        throw PipelineError(
          stage: input.stage.text, message: "range got \(value.printed), not a number (a bug: please report it)",
          nodeID: input.nodeID)
      }
    }
  }
}
