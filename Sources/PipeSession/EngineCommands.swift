import Locking
import PipeRuntime
import PipeSema

// What the shell's commands ask of the session and its jobs, and do to them: the shell reaches
// the runtime's jobs, channels and recorder only through these.

extension Engine {
  /// The live tasks, as `stats` and `--stats` say them: every task of every job (its own, its
  /// operators'), as the runtime reported them; those that outlive their job are named.
  public var liveTasksText: String {
    guard TaskViews.available else { return "tasks: not counted (\(TaskViews.unavailable))" }
    let jobs = jobs.all
    let total = jobs.reduce(0) { $0 + $1.context.tasks.live }
    var outliving: [String] = []
    for job in jobs {
      let tasks = job.context.tasks.outliving
      let spawned = tasks.filter { $0.lifetime == .spawned }.map { String($0.id) }
      if !spawned.isEmpty {
        let ended = job.state == .running ? "" : ", which ended"
        let numbers = (spawned.count == 1 ? "task " : "tasks ") + spawned.joined(separator: ", ")
        outliving.append("\(numbers) started by spawn in job \(job.id)\(ended)")
      }
      for task in tasks {
        if case .sharedFragment(let name) = task.lifetime {
          outliving.append("task \(task.id) in share fragment '\(name)'")
        }
      }
    }
    guard !outliving.isEmpty else { return "tasks: \(total) live" }
    return "tasks: \(total) live (\(outliving.joined(separator: ", ")))"
  }

  /// The live nodes, as `stats` and `--stats` say them: those of jobs and those of the hot parts of
  /// `share` fragments, which the session keeps for later consumers, named.
  public var liveNodesText: String {
    let shared = session.liveSharedNodes
    let spawned = jobs.all.compactMap { job -> String? in
      let count = job.context.outlivingNodes.value
      return count > 0 ? "\(count) in pipelines spawn started in job \(job.id)" : nil
    }
    let outliving = jobs.all.reduce(0) { $0 + $1.context.outlivingNodes.value }
    let total = jobs.liveNodes + outliving + shared.reduce(0) { $0 + $1.nodes }
    var named = spawned
    if !shared.isEmpty {
      named.append(
        shared.map { "\($0.nodes) in share fragment '\($0.fragment)'" }.joined(separator: ", ")
          + ", kept for later consumers")
    }
    guard !named.isEmpty else { return "nodes: \(total) live" }
    return "nodes: \(total) live (\(named.joined(separator: "; ")))"
  }
}

extension Engine {
  /// The numbers of every job the session keeps, in the order they started.
  public var jobIDs: [Int] { jobs.all.map(\.id) }

  /// The names of the session's channels, streams and subjects made so far.
  public var channelNames: [String] { session.channelNames }

  /// Says the terminal's input is the line editor's: a `stdin` stage refuses it.
  public func giveTerminalInputToTheEditor() {
    session.terminalInputIsTheEditors.store(true, ordering: .relaxed)
  }

  /// How long the session has run, on the real clock.
  public var realTimeSinceStart: Duration { ContinuousClock.now - session.origin }

  /// `--record FILE`: `recorder` sees every job of the session from its start.
  public func record(everyJobInto recorder: TraceRecorder) {
    jobs.recorder.withLock { $0 = recorder }
  }

  /// Leaving the shell: cancels every running job, says which ignore the cancel (`again`: what a
  /// second Ctrl-C does), and waits for them all (Ctrl-C after `interruptsBefore` stops the wait).
  /// Returns how many were running.
  public func cancelEverything(again: String, since interruptsBefore: Int) async -> Int {
    let running = jobs.cancelAll()
    sayWhatIgnoresTheCancel(jobs.all, again: again)
    await waitForAll(jobs.all, since: interruptsBefore)
    return running
  }

  /// `cancel all`: cancels every running job and waits until every node of them has ended.
  /// Returns how many there were.
  public func cancelAllRunning() async -> Int {
    let running = jobs.running
    for job in running { job.cancel() }
    await waitForAll(running)
    return running.count
  }

  /// What `cancel N` did.
  public enum Cancelled: Sendable {
    /// There is no job N.
    case noJob
    /// Job N had ended already: its text, and how it ended (`endNotice`).
    case ended(text: String, notice: String)
    /// It was running: cancelled, and waited for until every node of it ended.
    case cancelled
  }

  /// `cancel N`: cancels job `id` and waits until every node of it has ended.
  public func cancel(job id: Int) async -> Cancelled {
    guard let job = jobs.job(id) else { return .noJob }
    guard job.state == .running else { return .ended(text: job.text, notice: Self.endNotice(job)) }
    job.cancel()
    await waitFor { await job.wait() }
    return .cancelled
  }

  /// `close NAME`: finishes the channel, stream or subject, in the virtual world's order.
  public func close(channel name: String) async {
    let session = session
    await changeWorld { session.close(name) }
  }

  /// `fail NAME "MESSAGE"`: ends the channel with an error, as a task of the session's clock queued
  /// after what the last statement made runnable: the consumers that just took a value are back
  /// waiting when the error comes (AsyncThrowingChannel gives the error to waiting consumers; one
  /// not waiting just sees the end). False when the channel cannot fail.
  public func fail(channel name: String, message: String) async -> Bool {
    let session = session
    let failed = Locked(false)
    await waitFor(interruptible: false) { failed.withLock { $0 = session.fail(name, message: message) } }
    return failed.withLock { $0 }
  }
}
