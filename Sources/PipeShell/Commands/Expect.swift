import MarbleDiagrams
import PipeEvaluator
import PipeExport
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews
import TraceFormat
import VirtualTime

extension Commands {
  /// `expect P CLAIM`: runs P on a virtual clock of its own and checks the claim.
  struct Expect: ShellCommand {
    static let signature = CommandSignature(
      "expect",
      .expectation(options: [
        "tick", CommandOptions.untilLabel, CommandOptions.dialectLabel, CommandOptions.inLabel,
        CommandOptions.ordersLabel,
      ]),
      usage:
        "expect PIPELINE == \"DIAGRAM\" | prints V… | fails \"MESSAGE\" | ends \"NODE\" \"REASON\" [in: every order [orders: N]] [tick: D] [until: D] [dialect: aa|rxjs]",
      summary:
        "runs a pipeline on a virtual clock of its own and checks it: == its output drawn a column a tick (tick:, else the first marble's, else 1s; 1ms frames with dialect: rxjs, RxJS's notation, frame 0 at the start) is DIAGRAM, run until DIAGRAM's ; (where it is cancelled, before that step's events), until:, or just before twice DIAGRAM's length (a DIAGRAM with no end claims nothing more until then; an empty one, or one cancelled at its first step, needs until:); prints: it passes on these values and finishes; fails: it fails with MESSAGE; ends: its node labelled NODE (as draw labels it) ends finished, failed, cancelled or cancelled for REASON (downstream finished, job cancelled…); silent when it holds (pipesh -v says it), otherwise expected and actual drawn under one ruler with the first difference marked, and the script's status is 1; in: every order: it must hold in every order explore would run (depth-first, at most orders: N, 1000 unless it says), a failure drawn for the first order that breaks it with its order: TOKEN for draw, and more orders than N a failure too, saying how many held"
    )
    static let example = HelpExample(
      "expect marble \"abcdefghijk|\" | throttle 2 == \"a-c-e-g-i-k|\"\nexpect from 1 2 3 | map { $0 * 10 } prints 10 20 30\n"
        + "expect marble \"abcdefghijk|\" | throttle 2 latest: false == \"a-c-e-g-i-k|\"")
    let expectation: CheckedExpectation

    static func check(_ reader: inout CommandReader) -> Self? { reader.expectation().map { Self(expectation: $0) } }
    var reach: CommandReach { .runs(expectation.pipeline, writing: nil) }
    var export: CommandExport { .expectation(expectation) }

    func run(in shell: Shell) async {
      await shell.expect(expectation)
    }
  }
}

/// One expectation's outcome, as `pipesh -v` and `--expectations FILE` report it.
public struct ExpectationOutcome: Sendable {
  public let file: String
  public let line: Int
  public let column: Int
  public let text: String
  /// Nil when it held: the first difference in words.
  public let message: String?
  /// The expected and actual lanes (or lists) aligned, the difference marked; empty when it held.
  public let drawing: [String]

  /// One JSON object, as `--expectations FILE` writes a line.
  public var json: String {
    var fields = [
      "\"file\":" + TraceFile.quoted(file), "\"line\":\(line)", "\"column\":\(column)",
      "\"text\":" + TraceFile.quoted(text), "\"passed\":\(message == nil)",
    ]
    if let message {
      fields.append("\"message\":" + TraceFile.quoted(message))
      fields.append("\"drawing\":" + TraceFile.quoted(drawing.joined(separator: "\n")))
    }
    return "{" + fields.joined(separator: ",") + "}"
  }
}

extension Shell {
  /// Runs an expectation's pipeline as `draw` does and checks its claim: silent when it holds
  /// (a line with `pipesh -v`); otherwise an error at the claim, the drawing, status 1.
  func expect(_ expectation: CheckedExpectation) async {
    let outcome =
      expectation.everyOrder
      ? await expectInEveryOrder(expectation) : await check(expectation, in: ExpectationRun(order: nil, apart: false))
    let location = engine.runningCommandLocation
    let result = ExpectationOutcome(
      file: location?.file ?? "", line: location?.line ?? 0, column: location?.column ?? 0, text: expectation.text,
      message: outcome?.message, drawing: outcome?.drawing ?? [])
    expectations.record(result)
    guard let outcome else {
      if expectations.verbose {
        console.line("ok \(result.line):\(result.column): \(expectation.text)")
      }
      return
    }
    engine.commandFailed("expectation failed: " + outcome.message, at: outcome.argument)
    for line in outcome.drawing { console.line(line, to: .error) }
  }

  /// Where one run of an expectation goes: the order it takes (nil: the virtual clock's own) and
  /// whether it runs apart, in a job table of its own (else in the session's, taking a job number).
  struct ExpectationRun {
    let order: ChoiceOrder?
    let apart: Bool
  }

  /// What a failed expectation reports: the first difference in words, the drawing, and which of
  /// the command's arguments the error points at.
  private typealias Failure = (message: String, drawing: [String], argument: Int)

  /// Runs the pipeline once, as `run` says, and checks the claim: nil when it holds.
  private func check(_ expectation: CheckedExpectation, in run: ExpectationRun) async -> Failure? {
    switch expectation.claim {
    case .diagram(let diagram): await expectDiagram(expectation, diagram, in: run)
    case .prints(let values): await expectPrinted(expectation, values, in: run)
    case .fails(let message): await expectFailure(expectation, message, in: run)
    case .ends(let node, let reason): await expectEnd(expectation, node: node, reason: reason, in: run)
    }
  }

  /// `in: every order`: checks the claim in each order `explore` runs, in its order, and stops at
  /// the first that breaks it: its failure, with its token. The first order runs in the session's
  /// table (the one job number an expectation takes), the others each in a table of its own. Not
  /// every order checked (more than `orders:`, or Ctrl-C) is a failure too: it never says "every"
  /// of orders it did not run.
  private func expectInEveryOrder(_ expectation: CheckedExpectation) async -> Failure? {
    let limit = expectation.options.orders ?? CommandOptions.defaultOrders
    var interrupted: Bool { Task.isCancelled || engine.interruptedInThisStatement }
    // On a terminal, a long check counts its orders as explore does (none are outcomes here).
    var progress = ExploreProgress(limit: limit, command: "expect")
    defer { progress.clear() }
    var broken: Failure?
    let orders = await walkOrders(
      expectation, sessionFirst: true, stopped: { interrupted },
      willRun: { progress.show(orders: $0, outcomes: nil) }
    ) { failure, token, number in
      guard let failure else { return true }
      broken = (
        "in order \(number) of those explore runs: " + failure.message,
        failure.drawing + ["order: \(token.word) (draw P order: \(token.word) draws this order)"],
        failure.argument
      )
      return false
    }
    if let broken { return broken }
    if orders.all { return nil }
    let held = "it held in the \(orders.count) order\(orders.count == 1 ? "" : "s") checked"
    let argument = expectation.everyOrderArgument ?? 0
    if interrupted { return ("not checked in every order: interrupted; " + held, [], argument) }
    return (
      "not checked in every order: \(held), and more remain (orders: N checks up to N, at most 100000)", [],
      argument
    )
  }

  /// What every order `explore` runs (at most `orders:`, else its default) says of `expectation`:
  /// the same in each (held in all, or failed in all), or not. Nothing is printed and no job
  /// number is taken. `pipesh --emit-test` asks it: a test on MarbleTesting's clock, which takes
  /// orders of its own, holds or fails as pipesh says only when every order says the same.
  func verdictInEveryOrder(_ expectation: CheckedExpectation) async -> OrderVerdict {
    var held = 0
    var first: Bool?
    var differing: String?
    let orders = await walkOrders(expectation, sessionFirst: false) { failure, token, _ in
      let holds = failure == nil
      if holds { held += 1 }
      if first == nil { first = holds }
      if differing == nil, holds != first { differing = token.word }
      return true
    }
    guard orders.all else { return .unknown(checked: orders.count) }
    guard let differing else { return .same(orders: orders.count) }
    return .differs(held: held, orders: orders.count, token: differing)
  }

  /// Runs `expectation` once in each order `explore` runs, depth-first, at most `orders:` (1000
  /// unless it says): the first in the session's table when `sessionFirst` (the one job number an
  /// expectation takes), every other in a table of its own. `visit` is given each order's failure
  /// (nil: the claim held), its token and its number, and says whether to go on; `stopped` ends
  /// the walk before an order and after one, which is then not counted. Returns the walk.
  private func walkOrders(
    _ expectation: CheckedExpectation, sessionFirst: Bool, stopped: () -> Bool = { false },
    willRun: (Int) -> Void = { _ in }, _ visit: (Failure?, OrderToken, Int) -> Bool
  ) async -> DepthFirstOrders {
    var orders = DepthFirstOrders(limit: expectation.options.orders ?? CommandOptions.defaultOrders)
    let program = OrderToken.hash(of: expectation.pipeline)
    while !stopped(), let choices = orders.next() {
      willRun(orders.count)
      let order = Engine.order(replaying: choices)
      let apart = !(sessionFirst && orders.count == 0)
      let failure = await check(expectation, in: ExpectationRun(order: order, apart: apart))
      if stopped() { break }
      orders.ran(order.made.map { ($0.index, $0.count) })
      let token = OrderToken(program: program, choices: order.made.map(\.index))
      guard visit(failure, token, orders.count) else { break }
    }
    return orders
  }

  /// `== "DIAGRAM"`: the output lane, a column a tick, against the diagram. The run ends at the
  /// diagram's `;` (where the expectation cancels it), at `until:`, or just before twice its
  /// length; a diagram with no end claims nothing more until then, and that cut is not drawn.
  private func expectDiagram(
    _ expectation: CheckedExpectation, _ diagram: MarbleDiagram, in run: ExpectationRun
  ) async -> Failure? {
    let rxjs = expectation.options.dialect == .rxjs
    let tick =
      expectation.options["tick"] ?? expectation.pipeline.marbleTick
      ?? Catalogue.Marble.defaultTick(expectation.options.dialect)
    // RxJS counts frames from 0 at the start; a step here is a frame plus one.
    let shift = rxjs ? 1 : 0
    let expected = Marbles(diagram, shift: shift)
    // A `;` claims the expectation cancels it there: before that step's events, as
    // swift-async-algorithms' validation cancels before it moves its clock to the step.
    let cancelAt = expected.events.first { $0.event == .cancelled }?.step
    let horizon =
      expectation.options[CommandOptions.untilLabel] ?? cancelAt.map { tick * ($0 - shift) - .nanoseconds(1) }
      ?? tick * (max(2 * expected.length, expected.length + 2) - shift) - .nanoseconds(1)
    let recorded = await recordedRun(expectation, horizon: horizon, in: run)
    if let stopped = Self.stoppedEarly(recorded) { return (stopped, [], 1) }
    guard let output = recorded.nodes.last else { return nil }
    let recorder = DiagramRecorder(tick: tick)
    var events: [(step: Int, event: Marbles.Event)] = []
    for (time, kind) in recorded.events(for: output) {
      let event: Marbles.Event
      switch kind {
      case .element(let value): event = .value(DiagnosticFormatter.visible(value.printed))
      case .finished: event = .finished
      case .failed: event = .failed
      case .cancelled:
        // The horizon's cut is the expectation's, not the pipeline's: drawn only where claimed.
        if recorded.stop == .horizon {
          if let cancelAt { events.append((cancelAt, .cancelled)) }
          continue
        }
        event = .cancelled
      case .start, .asked, .sending: continue
      }
      events.append((rxjs ? Self.frame(of: time, tick: tick) + 1 : recorder.column(of: time), event))
    }
    let comparison = MarbleComparison(
      expected: expected, actual: Marbles(events: events),
      names: MarbleComparison.StepNames(
        ruler: { MarbleLanes.label(tick * ($0 - shift)) }, words: { MarbleLanes.label(tick * ($0 - shift)) }))
    guard let message = comparison.message else { return nil }
    let width = Format.screenWidth
    if rxjs, let drawing = Self.rxjsDrawing(comparison, tick: tick), drawing.allSatisfy({ Format.columns($0) <= width })
    {
      return (message, drawing, 1)
    }
    return (message, comparison.drawing(width: width), 1)
  }

  /// RxJS's frame of a time: the whole frames since the start.
  private static func frame(of time: Duration, tick: Duration) -> Int {
    Int((time.inSecondsValue / tick.inSecondsValue + 1e-9).rounded(.down))
  }

  /// A comparison drawn in RxJS's notation, a column a frame from frame 0, values that are not
  /// one character as letters with a legend; nil when the lanes cannot be written so (a group
  /// running into the next event).
  private static func rxjsDrawing(_ comparison: MarbleComparison, tick: Duration) -> [String]? {
    func lane(_ marbles: Marbles) -> [RxJSLanes.TimedEvent] {
      marbles.events.map { step, event in
        let written: MarbleDiagram.Event =
          switch event {
          case .value(let text): .value(text)
          case .finished: .finish
          case .failed: .fail
          case .cancelled: .cancel
          }
        return (step - 1, written)
      }
    }
    guard case .success(let lanes) = RxJSLanes.write([lane(comparison.expected), lane(comparison.actual)]),
      lanes.lines.count == 2, let difference = comparison.difference
    else { return nil }
    let width = lanes.lines.map(Format.columns).max() ?? 0
    var ruler = ""
    for frame in stride(from: 0, to: max(width, 1), by: 10) where ruler.count <= frame {
      ruler = Format.pad(ruler, frame) + MarbleLanes.label(tick * frame) + " "
    }
    while ruler.last == " " { ruler.removeLast() }
    var lines = [
      Format.pad("", 10) + ruler, Format.pad("expected", 10) + lanes.lines[0],
      Format.pad("actual", 10) + lanes.lines[1],
      Format.pad("", 10 + difference.step - 1) + "^",
    ]
    if !lanes.legend.isEmpty {
      lines.append("where " + lanes.legend.map { "\($0.letter) = \($0.value)" }.joined(separator: ", "))
    }
    return lines
  }

  /// `prints V…`: the values the output passed on, and that it finished.
  private func expectPrinted(
    _ expectation: CheckedExpectation, _ values: [Value], in place: ExpectationRun
  ) async -> Failure? {
    let run = await endedRun(expectation, in: place)
    let expected = values.map { DiagnosticFormatter.visible($0.printed) }
    let lists = ListComparison(expected: expected, actual: run.printed)
    if var message = lists.message {
      // Fewer values than claimed: what ended it says why.
      if run.printed.count < expected.count, lists.difference == run.printed.count {
        message += " (it \(run.endWords))"
      }
      return (message, lists.drawing, 0)
    }
    guard case .finished = run.end else {
      return ("printed \(Self.list(expected)) and then " + run.endWords, [], 0)
    }
    return nil
  }

  /// `fails "MESSAGE"`: how the output ended.
  private func expectFailure(
    _ expectation: CheckedExpectation, _ message: String, in place: ExpectationRun
  ) async -> Failure? {
    let run = await endedRun(expectation, in: place)
    if case .failed(let actual) = run.end, actual.message == message || actual.description == message { return nil }
    let printed = run.printed.isEmpty ? "" : " after printing \(Self.list(run.printed))"
    return ("expected it to fail with \(TraceFile.quoted(message)); it \(run.endWords)\(printed)", [], 1)
  }

  /// `ends "NODE" "REASON"`: the end of the node labelled NODE.
  private func expectEnd(
    _ expectation: CheckedExpectation, node label: String, reason: String, in run: ExpectationRun
  ) async -> Failure? {
    let recorded = await recordedRun(expectation, horizon: horizon(expectation), in: run)
    guard let node = recorded.nodes.first(where: { $0.text == label }) else {
      let labels = recorded.nodes.map { "'\($0.text)'" }.joined(separator: ", ")
      return ("no node labelled '\(label)' in this pipeline; its nodes are \(labels)", [], 1)
    }
    let ends = recorded.events(for: node).compactMap { time, kind -> (Duration, String, [String])? in
      switch kind {
      case .finished: (time, "finished", ["finished"])
      case .failed(let message): (time, "failed (\(message))", ["failed", message, "failed (\(message))"])
      case .cancelled(let why): (time, "cancelled (\(why))", ["cancelled", why, "cancelled (\(why))"])
      case .start, .element, .asked, .sending: nil
      }
    }
    if let stopped = Self.stoppedEarly(recorded) { return (stopped, [], 2) }
    // The horizon's cancel is the expectation's, not an end of the pipeline's own.
    let own = ends.filter { !(recorded.stop == .horizon && $0.0 >= recorded.horizon) }
    guard let (time, said, accepted) = own.last else {
      return (
        "expected '\(label)' to end: \(reason); it had not ended by \(MarbleLanes.label(recorded.horizon))", [], 2
      )
    }
    if accepted.contains(reason) { return nil }
    return ("expected '\(label)' to end: \(reason); it ended \(said) at \(MarbleLanes.label(time))", [], 2)
  }

  /// The expectation's pipeline run up to `horizon` as `run` says, printing nothing.
  func recordedRun(
    _ expectation: CheckedExpectation, horizon: Duration, in run: ExpectationRun
  ) async -> RecordedRun {
    await engine.recordedRun(expectation.pipeline, horizon: horizon, quiet: true, order: run.order, apart: run.apart)
  }

  /// How far a run that is not drawn goes: `until:`, else as far as `draw` would.
  func horizon(_ expectation: CheckedExpectation) -> Duration {
    if let until = expectation.options[CommandOptions.untilLabel] { return until }
    let tick = expectation.options["tick"] ?? expectation.pipeline.marbleTick ?? .seconds(1)
    return Horizon(tick: tick, until: nil).end
  }
}
