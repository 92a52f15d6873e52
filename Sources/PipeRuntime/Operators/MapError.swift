import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `mapError`: AsyncAlgorithms' `mapError(_:)` with a new message for the failure.
  enum MapError {
    static func run(transform: TypedExpr) -> Run {
      .node(build: { input in
        let transform = input.compile(transform)
        let (stage, nodeID) = (input.stage.text, input.nodeID)
        return ValueSequence(
          input.upstream.mapError { (failure: any Error) -> any Error in
            // A cancellation is no failure: it stays one, so the job is still "cancelled".
            if failure is CancellationError { return failure }
            let message = (failure as? PipelineError)?.message ?? "\(failure)"
            do {
              guard case .string(let mapped) = try transform(.string(message), .none) else {
                let bug = "pipesh gave mapError a non-String (a bug: please report it)"
                return PipelineError(stage: stage, message: bug, nodeID: nodeID)
              }
              return PipelineError(stage: stage, message: mapped, nodeID: nodeID)
            } catch {
              // The closure itself failed (an index out of range): that is the new failure.
              return error
            }
          })
      })
    }
  }
}
