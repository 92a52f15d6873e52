import MarbleDiagrams
import PipeEvaluator
import PipeExport
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews
import TraceFormat
import VirtualTime

extension Shell {
  /// What the output passed on and how it ended.
  struct EndedRun {
    enum End {
      case finished
      case failed(PipelineError)
      case cancelled(String)
      case notEnded(Duration)
      /// Stopped after `DrawObserver.maximumEvents` events: what it would have done is not known.
      case overflowed
    }
    var printed: [String] = []
    var end: End

    var endWords: String {
      switch end {
      case .finished: "finished"
      case .failed(let failure): "failed with \(TraceFile.quoted(failure.message)) (at \(failure.stage))"
      case .cancelled(let why): "was cancelled (\(why))"
      case .notEnded(let horizon): "had not ended by \(MarbleLanes.label(horizon)) (until: D runs it further)"
      case .overflowed: Shell.stoppedWords
      }
    }
  }

  func endedRun(_ expectation: CheckedExpectation, in place: ExpectationRun) async -> EndedRun {
    let recorded = await recordedRun(expectation, horizon: horizon(expectation), in: place)
    var run = EndedRun(end: .notEnded(recorded.horizon))
    if recorded.stop == .events { run.end = .overflowed }
    guard let output = recorded.nodes.last, recorded.stop != .events else { return run }
    for (_, kind) in recorded.events(for: output) {
      switch kind {
      case .element(let value): run.printed.append(DiagnosticFormatter.visible(value.printed))
      case .finished: run.end = .finished
      case .failed(let message):
        run.end = recorded.failure.map { .failed($0) } ?? .failed(PipelineError(stage: output.text, message: message))
      case .cancelled(let why): run.end = recorded.stop == .horizon ? .notEnded(recorded.horizon) : .cancelled(why)
      case .start, .asked, .sending: continue
      }
    }
    return run
  }

  /// What an expectation says of a run stopped after `DrawObserver.maximumEvents` events.
  static let stoppedWords =
    "was stopped after \(DrawObserver.maximumEvents) events, before it could be judged (an earlier until: checks less)"

  /// The failure of a run stopped for its events, if it was.
  static func stoppedEarly(_ recorded: RecordedRun) -> String? {
    recorded.stop == .events ? "the pipeline " + stoppedWords : nil
  }

  static func list(_ values: [String]) -> String {
    values.isEmpty ? "nothing" : values.joined(separator: " ")
  }
}
