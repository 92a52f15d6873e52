import OpenCombine
import PipeEvaluator
import PipeSema

/// The Combine side of `compare`: builds a checked pipeline out of its stages' Combine
/// counterparts on a virtual scheduler, records what every stage publishes, and runs it.
public enum CombineSide {
  /// One stage's line: in the order `draw` lists the AA nodes (a combinator's inputs first).
  public struct Row: Sendable {
    /// What the Combine side of a stage did.
    public enum Outcome: Sendable, Equatable {
      /// It ran: its marble line.
      case drawn(String)
      /// Nothing in Combine does this; why.
      case unmatched(String)
      /// A stage before it has no counterpart, so it has no input.
      case notRun
      /// Building it failed (a bug of pipesh's).
      case failed(String)
    }

    public let text: String
    public let isSink: Bool
    /// The Combine publisher or operator, as `compare` names it.
    public let counterpart: String
    public let outcome: Outcome
    /// What it published, at the scheduler's exact times (for `compare … to:`).
    public let events: [(time: Duration, event: MarbleDiagram.Event)]
  }

  /// The rows, and whether the run was stopped at the widest diagram or the most events.
  public struct Result: Sendable {
    public let rows: [Row]
    public let stopped: Bool
    /// With `reversingTiesIn:`, the first instant whose actions ran in reversed order.
    public let reversedTie: Duration?
  }

  /// Runs `pipeline` on a virtual scheduler of its own until every sink has its end, or until
  /// `limit` (the widest diagram), `maximumEvents` or `isInterrupted` (asked now and then: Ctrl-C)
  /// stops it; times are drawn in columns of `tick`. With `reversingTiesIn:`, the actions of one
  /// instant in that range run last-scheduled first.
  public static func run(
    _ pipeline: CheckedPipeline, tick: Duration, limit: Duration, maximumEvents: Int,
    reversingTiesIn reversingTies: Range<Duration>? = nil, isInterrupted: () -> Bool = { false }
  ) -> Result {
    let builder = Builder(tick: tick, maximumEvents: maximumEvents, reversingTies: reversingTies)
    let publisher = builder.build(pipeline)
    let sink = Subscribers.Sink<Value, any Error>(
      receiveCompletion: { [builder] _ in
        builder.completed = true
        builder.openSinks -= 1
      }, receiveValue: { _ in })
    builder.stop = { sink.cancel() }
    if let publisher {
      builder.openSinks += 1
      publisher.subscribe(sink)
    }
    // Where a stage has no counterpart, the stages before it still run, into sinks of their own.
    let partial = builder.dangling.map { dangling in
      builder.openSinks += 1
      let sink = Subscribers.Sink<Value, any Error>(
        receiveCompletion: { [builder] _ in builder.openSinks -= 1 }, receiveValue: { _ in })
      dangling.subscribe(sink)
      return sink
    }
    // Once every sink has its end nothing more can be drawn, though timers may still repeat
    // (OpenCombine's timeout keeps its timer after it fired): the run stops there.
    var asked = 0
    builder.scheduler.run(until: .init(nanoseconds: 0).advanced(by: .init(limit))) {
      asked += 1
      if asked % 1024 == 0, isInterrupted() { return false }
      return builder.openSinks > 0 && !builder.overflowed
    }
    // What still runs at the limit is cancelled there, as the AA side cancels its job.
    sink.cancel()
    for sink in partial { sink.cancel() }
    builder.scheduler.reset()
    let stopped = publisher != nil && (!builder.completed || builder.overflowed)
    return Result(
      rows: builder.rows.map { $0.row() }, stopped: stopped,
      reversedTie: builder.scheduler.firstReversedTie?.duration)
  }

  /// Builds the publishers and keeps a recorder per stage.
  private final class Builder {
    let scheduler: VirtualScheduler
    let tick: Duration
    let maximumEvents: Int
    var rows: [Recorded] = []
    var events = 0
    var overflowed = false
    var completed = false
    /// Sinks subscribed that have not had their end yet.
    var openSinks = 0
    var stop: () -> Void = {}
    /// The publishers whose consumer has no counterpart: they run into sinks of their own.
    var dangling: [ValuePublisher] = []
    /// The hot part of each `share` fragment, built once, as the AA side builds it once.
    private var shared: [Int: ValuePublisher] = [:]

    init(tick: Duration, maximumEvents: Int, reversingTies: Range<Duration>?) {
      scheduler = VirtualScheduler(
        reversingTiesIn: reversingTies.map {
          VirtualScheduler.SchedulerTimeType(nanoseconds: 0).advanced(
            by: .init($0.lowerBound))..<VirtualScheduler.SchedulerTimeType(nanoseconds: 0).advanced(
              by: .init($0.upperBound))
        })
      self.tick = tick
      self.maximumEvents = maximumEvents
    }

    /// Whether stages built now get rows (not those of a `flatMap` body, built per element).
    private var recording = true

    /// The publisher of a pipeline a `flatMap` builds for an element: no rows, no sinks of its own.
    func buildBody(_ pipeline: CheckedPipeline) -> ValuePublisher? {
      let outer = recording
      recording = false
      defer { recording = outer }
      return build(pipeline)
    }

    /// The pipeline's publisher, nil when a stage has no counterpart; its rows are appended.
    func build(_ pipeline: CheckedPipeline) -> ValuePublisher? {
      var upstream: ValuePublisher? = Empty().eraseToAnyPublisher()
      for stage in pipeline.stages {
        let built: ValuePublisher?
        let recorded: Recorded
        switch stage.node {
        case .shared(let id):
          if let hot = shared[id] {
            built = hot
          } else {
            built = build(stage.inputs[0])
            shared[id] = built
          }
          recorded = Recorded(
            stage, tick: tick, counterpart: "the fragment's shared publisher", outcome: built == nil ? .notRun : nil)
        case .operation(let written):
          let inputs = stage.inputs.map { build($0) }
          (built, recorded) = apply(stage, kind: written.kind, upstream: upstream, inputs: inputs)
        }
        guard recording else {
          upstream = built
          continue
        }
        rows.append(recorded)
        upstream = built.map { tap($0, recorded) }
      }
      return upstream
    }

    /// The stage's counterpart; where there is none, what feeds it runs into sinks of its own.
    private func apply(
      _ stage: CheckedStage, kind: OperatorKind, upstream: ValuePublisher?, inputs: [ValuePublisher?]
    ) -> (
      ValuePublisher?, Recorded
    ) {
      let (publisher, recorded) = counterpart(stage, kind: kind, upstream: upstream, inputs: inputs)
      if publisher == nil, recording {
        let takesUpstream = stage.role == .operator || stage.role == .sink
        dangling += inputs.compactMap { $0 } + (takesUpstream ? [upstream].compactMap { $0 } : [])
      }
      return (publisher, recorded)
    }

    private func counterpart(
      _ stage: CheckedStage, kind: OperatorKind, upstream: ValuePublisher?, inputs: [ValuePublisher?]
    ) -> (ValuePublisher?, Recorded) {
      let counterpart = Counterparts.of(kind)
      let unmatched = Recorded(
        stage, tick: tick, counterpart: counterpart.label, outcome: .unmatched(counterpart.name))
      guard counterpart.origin != .missing else { return (nil, unmatched) }
      let inputs = inputs.compactMap { $0 }
      guard let upstream, inputs.count == stage.inputs.count else {
        return (nil, Recorded(stage, tick: tick, counterpart: counterpart.label, outcome: .notRun))
      }
      do {
        guard let operation = stage.operation else {
          throw PipelineError(stage: stage.text, message: "an argument not worked out (a bug: please report it)")
        }
        let input = CounterpartInput(
          stage: stage, upstream: upstream, inputs: inputs, scheduler: scheduler,
          body: { [unowned self] body in buildBody(body) })
        guard let publisher = try Counterparts.publisher(for: operation, input) else { return (nil, unmatched) }
        return (publisher, Recorded(stage, tick: tick, counterpart: counterpart.label))
      } catch let unmatched as Unmatched {
        return (
          nil,
          Recorded(stage, tick: tick, counterpart: "none: " + unmatched.reason, outcome: .unmatched(unmatched.reason))
        )
      } catch {
        return (
          nil, Recorded(stage, tick: tick, counterpart: counterpart.label, outcome: .failed("\(error)"))
        )
      }
    }

    /// The publisher with its events recorded on `recorded`'s line (OpenCombine's handleEvents),
    /// its subscription always handed over before its end (`SubscriptionFirst`).
    private func tap(_ publisher: ValuePublisher, _ recorded: Recorded) -> ValuePublisher {
      SubscriptionFirst(upstream: publisher).handleEvents(
        receiveOutput: { [unowned self] value in record(recorded, .value(value.printed)) },
        receiveCompletion: { [unowned self] completion in
          switch completion {
          case .finished: record(recorded, .finish)
          case .failure: record(recorded, .fail)
          }
        },
        receiveCancel: { [unowned self] in record(recorded, .cancel) }
      ).eraseToAnyPublisher()
    }

    private func record(_ recorded: Recorded, _ event: MarbleDiagram.Event) {
      events += 1
      guard events <= maximumEvents else {
        if !overflowed {
          overflowed = true
          stop()
        }
        return
      }
      recorded.add(scheduler.now.duration, event)
    }
  }

  /// A stage's counterpart and the events recorded for it.
  private final class Recorded {
    let stage: CheckedStage
    let counterpart: String
    let outcome: Row.Outcome?
    private var recorder: DiagramRecorder
    private var events: [(time: Duration, event: MarbleDiagram.Event)] = []

    init(_ stage: CheckedStage, tick: Duration, counterpart: String, outcome: Row.Outcome? = nil) {
      self.stage = stage
      self.counterpart = counterpart
      self.outcome = outcome
      recorder = DiagramRecorder(tick: tick)
    }

    func add(_ time: Duration, _ event: MarbleDiagram.Event) {
      if recorder.add(time, event) { events.append((time, event)) }
    }

    func row() -> Row {
      Row(
        text: stage.text, isSink: stage.role == .sink, counterpart: counterpart,
        outcome: outcome ?? .drawn(recorder.line), events: events)
    }
  }
}
