import Locking
import MarbleDiagrams
import PipeEvaluator
import PipeSema
import PipeSession
import PipeViews
import VirtualTime

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

extension Commands {
  /// `explore PIPELINE`: runs it once per order of the tasks runnable at one instant and shows
  /// each distinct outcome once, with a token that `draw P order: TOKEN` runs again.
  struct Explore: ShellCommand {
    static let signature = CommandSignature(
      "explore",
      .pipeline(
        partial: false,
        options: [CommandOptions.ordersLabel, CommandOptions.seedLabel, CommandOptions.untilLabel, "tick"]),
      usage: "explore PIPELINE [orders: N] [seed: S] [until: D] [tick: D]",
      summary:
        "runs a pipeline on the virtual clock once per order: at each instant where several tasks of the operators or the pipeline (not pipesh's own bookkeeping) can run, each of them first, depth-first, while there are at most N orders (orders:, default 1000; beyond, it stops at N, says not all, and runs N more at random, each choice drawn from seed: S, 1 unless it says); prints how many orders ran and whether that was all, then each distinct outcome once (the lanes as draw draws them, what the pipeline printed, each node's end and the job's status) with how many orders gave it and the order: TOKEN that draw P order: TOKEN and trace P order: TOKEN run again, and under each outcome after the first where its run parts from the closest earlier outcome's (parts from outcome N at TIME: the first instant a lane differs, and what came next there in each run); until: bounds an endless pipeline as draw's does (60 ticks without it); on a terminal a line counts the orders as they run; Ctrl-C stops it between orders, with what it found"
    )
    static let example = HelpExample("explore merge(marble \"a|\", marble \"b|\") | collect")
    let pipeline: CheckedPipeline
    let options: CommandOptions

    static func check(_ reader: inout CommandReader) -> Self? {
      reader.pipeline().map { Self(pipeline: $0.pipeline, options: $0.options) }
    }
    var reach: CommandReach { .runs(pipeline, writing: options.file) }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      await shell.explore(
        pipeline, orders: options.orders ?? Self.defaultOrders, seed: options.seed ?? Self.defaultSeed,
        tick: options["tick"],
        until: options["until"])
    }

    /// How many orders `explore` runs at most without `orders:`.
    static let defaultOrders = CommandOptions.defaultOrders
    /// Where its orders at random start without `seed:`.
    static let defaultSeed = 1
  }
}

extension Shell {
  /// One distinct outcome of `explore`: what a person sees of a run, the first order that gave it,
  /// and how many did.
  private struct ExploredOutcome {
    let recorded: RecordedRun
    let printed: [String]
    let token: OrderToken
    /// What its first run did, in order: where it parts from another outcome's.
    let steps: [Parting.Step]
    var count: Int
  }

  /// `explore`: every order depth-first over the choices (the first task at each, then the next
  /// at the last choice that has one, …), at most `limit` runs, each on a virtual clock of its own
  /// in a job table of its own (no job numbers of the session taken), in this process.
  /// When the depth-first orders were not all, as many again at random (each choice among the
  /// runnable tasks at random, from `seed`), so that the outcomes are not only those of the last
  /// choices' variations.
  func explore(
    _ pipeline: CheckedPipeline, orders limit: Int, seed: Int, tick chosen: Duration?, until: Duration?
  ) async {
    let horizon = Horizon(tick: chosen ?? pipeline.marbleTick ?? .seconds(1), until: until)
    let program = OrderToken.hash(of: pipeline)
    var outcomes: [ExploredOutcome] = []
    var byKey: [String: Int] = [:]
    var orders = DepthFirstOrders(limit: limit)
    var stop: RecordedRun.Stop?
    var interrupted: Bool { Task.isCancelled || engine.interruptedInThisStatement }
    var progress = ExploreProgress(limit: limit)
    /// Runs one order and keeps its outcome; false when Ctrl-C cancelled it (it is no outcome).
    func run(_ order: ChoiceOrder) async -> Bool {
      let output = Locked<[String]>([])
      // A table per order: the jobs of earlier orders are not kept (memory stays that of the outcomes).
      let recorded = await engine.recordedRun(
        pipeline, horizon: horizon.end, quiet: true, printing: true, order: order, apart: true, printedInto: output)
      if interrupted { return false }
      stop = stop ?? recorded.stop
      let made = order.made
      let printed = output.withLock { $0 }
      let key = Self.outcomeKey(recorded, printed: printed)
      if let index = byKey[key] {
        outcomes[index].count += 1
      } else {
        byKey[key] = outcomes.count
        outcomes.append(
          ExploredOutcome(
            recorded: recorded, printed: printed, token: OrderToken(program: program, choices: made.map(\.index)),
            steps: RunSequence.steps(of: recorded), count: 1))
      }
      return true
    }
    while !interrupted, let choices = orders.next() {
      progress.show(orders: orders.count, outcomes: outcomes.count)
      let order = Engine.order(replaying: choices)
      guard await run(order) else { break }
      orders.ran(order.made.map { ($0.index, $0.count) })
    }
    var random = 0
    if !orders.all, !interrupted {
      var seeds = SplitMix64(seed: UInt64(seed))
      while !interrupted, random < limit {
        progress.show(orders: orders.count, outcomes: outcomes.count, random: random)
        guard await run(Engine.order(randomFrom: seeds.next())) else { break }
        random += 1
      }
    }
    progress.clear()
    let width = Format.screenWidth
    let total = orders.count + random
    let ran = "\(total) order\(total == 1 ? "" : "s")"
    let outcomesText = "\(outcomes.count) outcome\(outcomes.count == 1 ? "" : "s")"
    if orders.all {
      console.line("\(ran) (all): \(outcomesText)")
    } else if random == 0, interrupted {
      console.line("\(ran) (not all: interrupted): \(outcomesText)")
    } else {
      let how = "\(orders.count) depth-first, then \(random) at random from seed: \(seed)"
      console.line("\(ran) (not all: \(how)\(interrupted ? ", interrupted" : "")): \(outcomesText)")
    }
    let tick = outcomes.map { $0.recorded.observer.finestTick(horizon.tick) }.min() ?? horizon.tick
    var viewed: [Report.Outcome] = []
    for (number, outcome) in outcomes.enumerated() {
      let count = "\(outcome.count) order\(outcome.count == 1 ? "" : "s")"
      console.line("outcome \(number + 1): \(count), order: \(outcome.token.word)")
      let recorded = outcome.recorded
      let rows = recorded.nodes.map { ($0.text, recorded.observer.line(for: $0, tick: tick)) }
      for line in Self.drawing(rows, tick: tick, width: width).lines { console.line(line) }
      if report != nil {
        viewed.append(
          Self.viewed(
            outcome, DrawnRun(rows: rows, tick: tick, recorded: recorded), title: "outcome \(number + 1): \(count)",
            of: pipeline, until: until))
      }
      for line in outcome.printed { console.line("printed: " + line) }
      console.line("status: " + Self.status(recorded))
      if let parting = Parting.closest(outcome.steps, from: outcomes.prefix(number).map(\.steps)) {
        // Wrapped at the screen's width, as explore's notes are.
        for line in Format.wrapped(parting.line(MarbleLanes.label), width: width) { console.line(line) }
      }
    }
    report?.addOutcomes(title: "explore " + pipeline.text, viewed)
    if tick != horizon.tick, chosen == nil { note(Self.finerNote("explore", tick, horizon.tick), width: width) }
    if let stop { note(stop.message("explore", horizon), width: width) }
  }

  /// An outcome as the page's explore view shows it: its picture, as `draw` draws its run, and
  /// the `draw P order: TOKEN` (with explore's `tick:` and `until:`) that runs it again.
  private static func viewed(
    _ outcome: ExploredOutcome, _ drawn: DrawnRun, title: String, of pipeline: CheckedPipeline, until: Duration?
  ) -> Report.Outcome {
    // The tick the picture is drawn at, so the replay draws it so too; durations as the lexer
    // reads them (`µs` is only the pictures').
    func written(_ duration: Duration) -> String { MarbleLanes.label(duration).replacing("µs", with: "us") }
    let options = " tick: " + written(drawn.tick) + (until.map { " until: " + written($0) } ?? "")
    let replay = "draw \(pipeline.text) order: \(outcome.token.word)" + options
    let picture = MarblePicture(
      lanes: drawn.pictureLanes, end: drawn.end,
      heading: PictureMarks.Heading(
        command: title, details: "order: \(outcome.token.word) · status: \(status(drawn.recorded))"))
    return Report.Outcome(caption: title, svg: picture.svg, replay: replay)
  }

  /// What a person sees of a run, as text: each node's lane (elements and their exact times, its
  /// end's kind and time; not who cancelled whom), what it printed, and the job's status.
  private static func outcomeKey(_ recorded: RecordedRun, printed: [String]) -> String {
    var key = ""
    for node in recorded.nodes {
      key += node.text + ":"
      for (time, kind) in recorded.events(for: node) {
        switch kind {
        case .element(let value): key += " \(time) → \(value)"
        case .finished: key += " \(time) finished"
        case .failed(let message): key += " \(time) failed \(message)"
        case .cancelled: key += " \(time) cancelled"
        case .start, .asked, .sending: continue
        }
      }
      key += "\n"
    }
    return key + printed.joined(separator: "\n") + "\n" + status(recorded)
  }

  /// The job's status, as `explore` prints it.
  private static func status(_ recorded: RecordedRun) -> String {
    switch recorded.state {
    case .failed: "failed: " + (recorded.failure?.message ?? "")
    default: recorded.state.rawValue
    }
  }
}

/// A long exploration's count, on a terminal only: one line of standard error, first written after
/// half a second and rewritten at most twice a second, erased before the results (a script's or a
/// pipe's output is the same bytes with or without it).
struct ExploreProgress {
  private let limit: Int
  /// Who counts: `explore`, or `expect … in: every order`.
  private let command: String
  private let enabled = isatty(2) == 1
  private let started = ContinuousClock.now
  private var shown: ContinuousClock.Instant?

  init(limit: Int, command: String = "explore") {
    self.limit = limit
    self.command = command
  }

  /// With `random`, the depth-first orders were not all and that many have run at random since.
  /// Without `outcomes` (an expectation's check), only the orders are counted.
  mutating func show(orders: Int, outcomes: Int?, random: Int? = nil) {
    guard enabled else { return }
    let now = ContinuousClock.now
    guard now - (shown ?? started) >= .milliseconds(500) else { return }
    shown = now
    let ran = random.map { "\(orders) depth-first orders, then \($0) of at most \(limit) at random" }
    let found = outcomes.map { ", \($0) outcome\($0 == 1 ? "" : "s")" } ?? ""
    let text = "\(command): \(ran ?? "\(orders) of at most \(limit) orders")\(found) (Ctrl-C stops)"
    Console.write(Array(("\r\u{1B}[K" + String(text.prefix(max(Format.screenWidth - 1, 10)))).utf8), to: 2)
  }

  /// Erases the line, if one was written.
  mutating func clear() {
    guard shown != nil else { return }
    shown = nil
    Console.write(Array("\r\u{1B}[K".utf8), to: 2)
  }
}
