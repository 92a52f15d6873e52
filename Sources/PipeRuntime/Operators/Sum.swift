import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `sum`: prints the sum of the elements, when the input ends.
  enum Sum {
    static func run() -> Run {
      .sink(
        { input in
          let stage = input.stage
          let nodeID = input.nodeID
          return Reduction(result: stage.outputType == .double ? .double(0) : .int(0)) { total, value in
            switch (total, value) {
            case (.int(let a), .int(let b)):
              let (sum, overflow) = a.addingReportingOverflow(b)
              if overflow {
                throw PipelineError(stage: stage.text, message: "integer overflow in \(a) + \(b)", nodeID: nodeID)
              }
              return (.int(sum), true)
            case (.double(let a), .double(let b)): return (.double(a + b), true)
            case (.double(let a), .int(let b)): return (.double(a + Double(b)), true)
            default: throw input.bug("a sum of \(total.printed) and \(value.printed)")
            }
          }
        })
    }
  }
}
