import Locking
import MarbleDiagrams
import Platform
import VirtualTime

/// The runs of marble tests: one at a time in the process, each on a virtual clock of its own,
/// driven by `VirtualDriver`, the driver the shell's clock, `draw` and `explore` run on (without
/// the shell's observation of tasks, which MarbleTesting does not link).
///
/// A run's root task prefers the driver as its executor (so do its child tasks); tasks that code
/// on the driver's thread starts with `Task { }` (swift-async-algorithms' `merge`, `debounce`,
/// `buffer`, `zip` do) are sent there by the runtime's global-enqueue hook, and run with the driver
/// as their task executor (the driver does not `runsKnownCode`: the user's code may call
/// `Task.yield()`, which enqueues on the task's current executor). So the driver knows
/// when every task of the run waits, and only then does time jump to the earliest deadline. Tasks
/// that become runnable at the same instant run in the order they became runnable, unless the
/// run's order picks, so a run is the same every time.
///
/// Parallel tests therefore wait for each other (each run takes microseconds to milliseconds of
/// real time).
final class TestDriver: Sendable {
  static let shared = TestDriver()

  private struct State {
    /// Whether a run is under way; the runs waiting for their turn.
    var busy = false
    var waiting: [UnsafeContinuation<Void, Never>] = []
    /// The clock of the run under way.
    var driver: VirtualDriver?
    /// Where the last run's clock stopped.
    var lastNow = Duration.zero
  }

  private let state = Locked(State())

  /// Virtual time since the current run started (the last run's end time between runs). A task
  /// of a run reads its own run's clock.
  var now: Duration {
    if let driver = VirtualDriver.current { return driver.now.offset }
    return state.withLock { $0.driver?.now.offset ?? $0.lastNow }
  }

  // MARK: runs

  /// Runs `body` as a task on a virtual clock of its own, from time zero, once every earlier run
  /// has ended. If every task of the run waits and none sleeps on the clock (a stall: nothing could
  /// ever happen), the body's task is cancelled; if that does not end it, the run ends without it.
  /// The sleepers it leaves are cancelled.
  func run(order: MarbleOrder? = nil, _ body: @escaping @Sendable () async -> Void) async {
    await takeTurn()
    let driver = VirtualDriver(order: order?.choices)
    state.withLock { $0.driver = driver }
    await run(body, on: driver)
    // The next run starts once this one's clock has cancelled the sleepers the run left and ended
    // (waited for on a thread of its own, not the caller's, and handed over so that
    // ThreadSanitizer sees it: the runtime is not instrumented).
    let shutDown = VisibleResume()
    await withUnsafeContinuation { (ended: UnsafeContinuation<Void, Never>) in
      let shut: @Sendable () -> Void = {
        driver.shutdown(waiting: .seconds(10))
        shutDown.resume(ended, returning: ())
      }
      if !Platform.detachThread(shut) { shut() }
    }
    shutDown.received()
    endTurn(at: driver.now.offset)
  }

  /// The task that runs a body, and whether a stall asked to cancel it before it was made.
  private struct Runner {
    var task: Task<Void, Never>?
    var cancelAsked = false
  }

  /// `body` on `driver`, cancelled at its first stall and left behind at its second.
  private func run(_ body: @escaping @Sendable () async -> Void, on driver: VirtualDriver) async {
    let runner = Locked(Runner())
    let stalls = Locked(0)
    let handOver = VisibleResume()
    defer { handOver.received() }
    await withUnsafeContinuation { (ended: UnsafeContinuation<Void, Never>) in
      let waiter = Locked<UnsafeContinuation<Void, Never>?>(ended)
      let end: @Sendable () -> Void = {
        let waiting = waiter.withLock { waiting -> UnsafeContinuation<Void, Never>? in
          defer { waiting = nil }
          return waiting
        }
        if let waiting { handOver.resume(waiting, returning: ()) }
      }
      let task = Task {
        await driver.run(until: body) {
          let count = stalls.withLock { count -> Int in
            count += 1
            return count
          }
          guard count == 1 else {
            // Left behind: the caller goes on off the driver's thread (resumed here, the runtime's
            // hook would keep it on this clock, which is about to end).
            if !Platform.detachThread(end) { end() }
            return
          }
          let task = runner.withLock { runner -> Task<Void, Never>? in
            if runner.task == nil { runner.cancelAsked = true }
            return runner.task
          }
          task?.cancel()
          // If the cancellation makes nothing runnable, the stall comes again: then the run is left.
          driver.reportStallAgain()
        }
        end()
      }
      let cancel = runner.withLock { runner -> Bool in
        runner.task = task
        return runner.cancelAsked
      }
      if cancel { task.cancel() }
    }
  }

  private func takeTurn() async {
    await withUnsafeContinuation { (turn: UnsafeContinuation<Void, Never>) in
      let now = state.withLock { state -> Bool in
        guard state.busy else {
          state.busy = true
          return true
        }
        state.waiting.append(turn)
        return false
      }
      if now { turn.resume() }
    }
  }

  private func endTurn(at now: Duration) {
    let next = state.withLock { state -> UnsafeContinuation<Void, Never>? in
      state.driver = nil
      state.lastNow = now
      guard !state.waiting.isEmpty else {
        state.busy = false
        return nil
      }
      return state.waiting.removeFirst()
    }
    next?.resume()
  }

  // MARK: the clock

  /// Suspends the calling task until virtual time reaches `deadline`; throws `CancellationError`
  /// when the task is cancelled, when no run is under way, or when the run ends first.
  func sleep(until deadline: Duration) async throws {
    guard let driver = VirtualDriver.current ?? state.withLock({ $0.driver }) else { throw CancellationError() }
    try await driver.sleep(until: PipeInstant(offset: deadline))
  }
}

/// The order of one run of `Marbles.explore`: at each choice (several tasks of the run runnable at
/// one instant), which runs first. It replays `replaying`, then takes the first at each choice after
/// them, and keeps what it chose. Every task of the run takes part.
final class MarbleOrder: Sendable {
  let choices: ChoiceOrder
  /// The recorder's own tasks (its run's root, its horizon), by address: never a choice, as the
  /// shell's bookkeeping is none in `explore`, so the orders are the sequence's alone.
  private let own: Locked<Set<UInt>>

  convenience init(replaying: [Int]) {
    self.init { ChoiceOrder(replaying: replaying, takesPart: $0) }
  }

  /// Every choice at random, from a generator seeded with `seed`.
  convenience init(randomFrom seed: UInt64) {
    self.init { ChoiceOrder(randomFrom: seed, takesPart: $0) }
  }

  /// The order `make` makes, every task but the recorder's taking part.
  private init(_ make: (@escaping @Sendable (UInt) -> Bool) -> ChoiceOrder) {
    let own = Locked<Set<UInt>>([])
    self.own = own
    choices = make { address in !own.withLock { $0.contains(address) } }
  }

  /// The current task is the recorder's own until `endOwn` is given what this returns: from its
  /// next enqueue on it is no choice.
  func beginOwn() -> UInt? {
    let address = withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } }
    if let address { own.withLock { _ = $0.insert(address) } }
    return address
  }

  /// Ends what `beginOwn` began (before the task ends: a task made later may get its address).
  func endOwn(_ address: UInt?) {
    guard let address else { return }
    own.withLock { _ = $0.remove(address) }
  }

  /// A replayed choice was beyond what was runnable, or some were left over: not this run's order.
  var misfit: Bool { choices.misfit }

  /// The choices made, each with how many tasks it was among.
  var made: [(index: Int, count: Int)] { choices.made.map { ($0.index, $0.count) } }

  /// The order as a word (`Marbles.record(order:)` runs it again): the choices, dot-separated,
  /// after `o`; `o` alone when the run had none.
  var token: String { "o" + choices.made.map { String($0.index) }.joined(separator: ".") }

  /// The choices a token names; nil when it is no token.
  static func choices(_ token: String) -> [Int]? {
    guard token.first == "o" else { return nil }
    let rest = token.dropFirst()
    guard !rest.isEmpty else { return [] }
    var choices: [Int] = []
    for part in rest.split(separator: ".", omittingEmptySubsequences: false) {
      guard let choice = Int(part), choice >= 0 else { return nil }
      choices.append(choice)
    }
    return choices
  }
}
