import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `range`: emits A through B inclusive, by steps of S (default 1).
  enum RangeSource {
    static let entry = Operator(
      OperatorSignature(
        "range", .source, usage: "range A B [by: S]", summary: "emits A through B inclusive, by steps of S (default 1)",
        parameters: [
          .positional("from", .number, "the first value"), .positional("through", .number, "the last value"),
          .labelled("by", .number, "the step; negative counts down"),
        ],
        example: "range 1 10 by: 3", implementation: "stride(from:through:by:).async"
      ) { typing in
        let types = ["from", "through", "by"].compactMap { typing.type(of: $0) }
        if case .value(let step, _) = typing.argument("by"), step == .int(0) || step == .double(0) {
          typing.error("the step cannot be 0", at: "by")
          return nil
        }
        return types.contains(.double) ? .double : .int
      },
      build: { input in
        switch try bounds(input) {
        case .integers(let from, let through, let by):
          return ValueSequence(stride(from: from, through: through, by: by).async.map { Value.int($0) })
        case .numbers(let from, let through, let by):
          return ValueSequence(stride(from: from, through: through, by: by).async.map { Value.double($0) })
        }
      },
      fusedSource: { input in
        guard case .integers(let from, let through, let by) = try bounds(input) else { return nil }
        return .integers(from: from, through: through, by: by)
      })

    /// Integers when A, B and S all are; Doubles otherwise.
    enum Bounds {
      case integers(Int, Int, Int)
      case numbers(Double, Double, Double)
    }

    static func bounds(_ input: StageInput) throws(PipelineError) -> Bounds {
      let from = try input.value("from")
      let through = try input.value("through")
      let by = input.optionalValue("by") ?? .int(1)
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
