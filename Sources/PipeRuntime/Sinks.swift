import PipeSema
import Synchronization

/// Runs the sink of a job: iterates the last node and prints the result.
enum Sinks {
  /// Consumes `upstream` as `stage` says; `received` counts the elements the sink got.
  static func run(
    _ stage: CheckedStage, _ upstream: ValueSequence, _ context: JobContext, _ job: Job
  )
    async throws
  {
    let input = StageInput(stage: stage, upstream: upstream, inputs: [], context: context)
    switch stage.name {
    case "count":
      var count = 0
      for try await _ in upstream {
        count += 1
        job.received.add(1, ordering: .relaxed)
      }
      try finish(context, .int(count))
    case "sum":
      var total: Value = stage.outputType == .double ? .double(0) : .int(0)
      for try await value in upstream {
        job.received.add(1, ordering: .relaxed)
        switch (total, value) {
        case (.int(let a), .int(let b)):
          let (sum, overflow) = a.addingReportingOverflow(b)
          if overflow { throw PipelineError(stage: stage.text, message: "integer overflow in \(a) + \(b)") }
          total = .int(sum)
        case (.double(let a), .double(let b)): total = .double(a + b)
        case (.double(let a), .int(let b)): total = .double(a + Double(b))
        default: break
        }
      }
      try finish(context, total)
    case "min", "max":
      let wantsMin = stage.name == "min"
      var best: Value?
      for try await value in upstream {
        job.received.add(1, ordering: .relaxed)
        if let current = best {
          if Evaluator.less(value, current) == wantsMin, value != current { best = value }
        } else {
          best = value
        }
      }
      try finish(context, best ?? .none)
    case "first":
      var first: Value = .none
      for try await value in upstream {
        job.received.add(1, ordering: .relaxed)
        first = value
        break
      }
      try finish(context, first)
    case "last":
      var last: Value = .none
      for try await value in upstream {
        job.received.add(1, ordering: .relaxed)
        last = value
      }
      try finish(context, last)
    case "collect":
      var all: [Value] = []
      for try await value in upstream {
        job.received.add(1, ordering: .relaxed)
        all.append(value)
      }
      try finish(context, .array(all))
    case "reduce":
      let next = input.closure("next")
      var result = input.value("initial") ?? .none
      for try await value in upstream {
        job.received.add(1, ordering: .relaxed)
        result = try next(result, value)
      }
      try finish(context, result)
    case "drain":
      for try await _ in upstream { job.received.add(1, ordering: .relaxed) }
    case "into":
      let channel = context.session.channel(input.name("name") ?? "")
      for try await value in upstream {
        job.received.add(1, ordering: .relaxed)
        await channel.send(value)
      }
    case "diagram":
      try await diagram(input, job)
    default:
      let label = input.string("label").map { "\($0): " } ?? ""
      let time = input.bool("time") ?? false
      for try await value in upstream {
        job.received.add(1, ordering: .relaxed)
        let stamp = time ? formatSeconds(context.elapsed, decimals: 3).withPlus + " " : ""
        context.emit(stamp + label + value.printed)
      }
    }
  }

  /// Prints a one-shot sink's result, unless the job was cancelled before the end.
  private static func finish(_ context: JobContext, _ value: Value) throws {
    try Task.checkCancellation()
    context.emit(value.printed)
  }

  private static func diagram(_ input: StageInput, _ job: Job) async throws {
    let tick = input.duration("tick") ?? .seconds(1)
    var recorder = DiagramRecorder(tick: tick)
    let context = input.context
    do {
      for try await value in input.upstream {
        job.received.add(1, ordering: .relaxed)
        recorder.add(context.elapsed, .value(value.printed))
      }
      recorder.add(context.elapsed, Task.isCancelled ? .cancel : .finish)
      context.emit(recorder.line)
    } catch is CancellationError {
      recorder.add(context.elapsed, .cancel)
      context.emit(recorder.line)
      throw CancellationError()
    } catch {
      recorder.add(context.elapsed, .fail)
      context.emit(recorder.line)
      throw error
    }
  }
}

/// Collects timed events and draws them as one marble line: column N holds what happened at tick N.
public struct DiagramRecorder: Sendable {
  let tick: Duration
  private(set) var events: [(column: Int, event: MarbleDiagram.Event)] = []

  public init(tick: Duration) {
    self.tick = tick
  }

  /// The column of a time: events before the first tick are drawn in column 1.
  func column(of time: Duration) -> Int {
    let ticks = time.inSecondsValue / tick.inSecondsValue
    return max(1, Int((ticks + 1e-9).rounded(.down)))
  }

  public mutating func add(_ time: Duration, _ event: MarbleDiagram.Event) {
    events.append((column(of: time), event))
  }

  public var line: String {
    guard let lastColumn = events.last?.column else { return "" }
    var columns = [[MarbleDiagram.Event]](repeating: [], count: lastColumn + 1)
    for (column, event) in events { columns[column].append(event) }
    var out = ""
    for column in 1...lastColumn {
      let group = columns[column]
      if group.isEmpty {
        out += "-"
      } else if group.count == 1 {
        out += Self.symbol(group[0])
      } else {
        out += "[" + group.map(Self.symbol).joined() + "]"
      }
    }
    return out
  }

  static func symbol(_ event: MarbleDiagram.Event) -> String {
    switch event {
    case .value(let text): text.count == 1 && !"-|^;[]' ".contains(text) ? text : "'\(text)'"
    case .finish: "|"
    case .fail: "^"
    case .cancel: ";"
    }
  }
}

extension String {
  var withPlus: String { "+" + self }
}
