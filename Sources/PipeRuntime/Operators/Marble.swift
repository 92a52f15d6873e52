import AsyncAlgorithms
import PipeEvaluator
import PipeSema
import PipeSyntax
import VirtualTime

extension Operators {
  /// `marble`: emits a marble diagram's values as strings, one step per tick (default 1s).
  enum Marble {
    static func run(diagram: MarbleDiagram, tick: Duration) -> Run {
      .node(
        build: { input in
          ValueSequence(
            MarbleSequence(
              diagram: diagram, tick: tick,
              clock: input.clock, stage: input.stage.text,
              origin: input.context.marblesFromStart ? input.context.start : nil))
        })
    }
  }
}

/// `marble "DIAGRAM"`: the diagram's events, one step per tick on the job's clock.
struct MarbleSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let diagram: MarbleDiagram
  let tick: Duration
  let clock: PipeClock
  let stage: String
  /// Where step 0 is; nil: when its iterator is made (see `JobContext.marblesFromStart`).
  let origin: PipeInstant?

  func makeAsyncIterator() -> Iterator {
    Iterator(
      events: diagram.events.flatMap { step in step.events.map { (step.step, $0) } }, neverEnds: diagram.neverEnds,
      failure: diagram.dialect == .rxjs ? "failed (# in the diagram)" : "failed (^ in the diagram)", tick: tick,
      clock: clock, start: origin ?? clock.now, stage: stage)
  }

  struct Iterator: AsyncIteratorProtocol {
    let events: [(Int, MarbleDiagram.Event)]
    /// An RxJS diagram that writes no end: after its last event it waits until cancelled.
    let neverEnds: Bool
    /// What its failure says.
    let failure: String
    let tick: Duration
    let clock: PipeClock
    let start: PipeInstant
    let stage: String
    var index = 0

    mutating func next() async throws -> Value? {
      guard index < events.count else {
        if neverEnds, index == events.count {
          index += 1
          var never = NeverSequence.Iterator()
          return await never.next()
        }
        return nil
      }
      let (step, event) = events[index]
      index += 1
      do {
        try await clock.sleep(until: start.advanced(by: tick * step), tolerance: nil)
      } catch {
        index = events.count + 1
        return nil
      }
      switch event {
      case .value(let text): return .string(text)
      case .finish, .cancel:
        index = events.count + 1
        return nil
      case .fail:
        index = events.count + 1
        throw PipelineError(stage: stage, message: failure)
      }
    }
  }
}
