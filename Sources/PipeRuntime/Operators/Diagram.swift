import AsyncAlgorithms
import PipeEvaluator
import PipeSema

extension Operators {
  /// `diagram`: prints the output as one marble line when the input ends (column N: tick N).
  enum Diagram {
    static func run(tick: Duration?) -> Run {
      .sink(
        { input in
          DiagramSink(
            recorder: DiagramRecorder(tick: tick ?? .seconds(1)), context: input.context,
            stage: input.stage.text)
        })
    }
  }
}

/// `diagram`: one marble line when the input ends, however it ends.
struct DiagramSink: SynchronousSinkBody {
  var recorder: DiagramRecorder
  let context: JobContext
  let stage: String

  mutating func take(_ value: Value, _ output: SinkOutput) throws -> Bool {
    try add(.value(value.printed))
    return true
  }

  mutating func end(_ how: SinkEnd, _ output: SinkOutput) throws {
    switch how {
    case .finished: try add(.finish)
    case .failed: try add(.fail)
    case .cancelled: try add(.cancel)
    }
    output.emit(.string(recorder.line), text: recorder.line)
  }

  private mutating func add(_ event: MarbleDiagram.Event) throws {
    guard recorder.add(context.elapsed, event) else {
      throw PipelineError(
        stage: stage,
        message: "the diagram would be more than \(DiagramRecorder.maximumColumns) ticks wide; give a larger tick:")
    }
  }
}
