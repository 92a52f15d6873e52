import PipeRuntime
import PipeSema
import TraceFormat

/// A warning about a job, read from its state at one moment: what looks wrong, and what to do.
/// `jobs` marks the job and adds a footnote; `lint` lists them.
public struct JobLint: Sendable {
  public enum Kind: String, CaseIterable, Sendable {
    case outputNowhere = "output-nowhere"
    case leak
    case bufferDrops = "buffer-drops"
    case debounceStarved = "debounce-starved"
    case sendWaiting = "send-waiting"
    case shareSlowConsumer = "share-slow-consumer"
    case streamConsumers = "stream-consumers"
    case ignoredCancellation = "ignored-cancellation"
    case taskLeftBehind = "task-left-behind"
  }

  public let kind: Kind
  public let job: Int
  /// What looks wrong, in one line.
  public let why: String
  /// What to do about it, in one line, for a job numbered as given (`cancel 3`, or `cancel N` in
  /// a footnote of several jobs).
  public let fixing: @Sendable (String) -> String

  /// What to do about this job.
  public var fix: String { fixing(String(job)) }
}

public enum Lints {
  /// How long a background job produces nothing before it is asked about (a leak?).
  static let leakAfter = Duration.seconds(60)
  /// How many elements a `share` holds for a slow reader before it is a warning.
  static let shareHeldBeyond = 10
  /// How many elements a `debounce` lets by before its silence is a warning.
  static let debounceElements = 10
  /// How long an `into` waits for a consumer before it is a warning.
  static let sendWaitingAfter = Duration.seconds(5)
  /// The job's warnings now, in a fixed order: the job's own, then its nodes', source first; last,
  /// what a node that ignores cancellation did after its task was cancelled, which stays said
  /// after the job has ended.
  package static func of(_ job: Job) -> [JobLint] {
    let ignored = ignoredCancellation(job) + leftBehind(job)
    guard job.state == .running else { return ignored }
    var lints: [JobLint] = []
    let id = job.id
    let now = job.context.sessionTime
    let nowhere =
      job.background && job.nodes.last?.facts?.kind == .drain
      && endless(job.nodes.filter { !$0.isSink })
    if nowhere {
      lints.append(
        JobLint(
          kind: .outputNowhere, job: id,
          why: "a background drain of an endless source: what it makes goes nowhere, and it never ends",
          fixing: { "cancel \($0) when it has done its work; a take ends it; print shows what it makes" }))
    }
    for case .node(let node, _, let input?, let output) in Inspector.tree(NodeSnapshot.of(job.nodes)) {
      if let limit = node.dropsBeyond, input - output > limit {
        lints.append(
          JobLint(
            kind: .bufferDrops, job: id,
            why: "\(node.text) has dropped at least \(input - output - limit) of \(input) elements: "
              + "its consumer is slower than its input",
            fixing: { _ in "a larger buffer keeps more; buffer \(limit) (bounded) makes the input wait instead" }))
      }
      if let since = node.waitingSince, now - since >= sendWaitingAfter {
        lints.append(
          JobLint(
            kind: .sendWaiting, job: id,
            why: "\(node.text) has waited \((now - since).secondsText) for a consumer to take an element: "
              + "nothing reads the channel, or its readers are slow",
            fixing: { "start a consumer of the channel (channel NAME of: TYPE | print &), or cancel \($0)" }))
      }
      if let held = node.shareHeld, let consumers = node.shareConsumers, node.state == .running, held > shareHeldBeyond
      {
        lints.append(
          JobLint(
            kind: .shareSlowConsumer, job: id,
            why: "\(node.text) holds \(held) elements one of its \(consumers) readers has not taken: "
              + "the slowest reader holds them for all, and they grow as it falls behind",
            fixing: { _ in
              "start the slow reader with buffer 10 policy: newest (it then drops, not the share), or give it its own source"
            }))
      }
      if node.facts?.kind == .debounce, node.state == .running, output == 0, input >= debounceElements {
        lints.append(
          JobLint(
            kind: .debounceStarved, job: id,
            why:
              "\(node.text) has passed on none of \(input) elements: its input has not paused that long since it started",
            fixing: { _ in
              "debounce passes an element on only after a pause; throttle passes one on per interval instead"
            }))
      }
    }
    for node in Node.flattened(job.nodes)
    where node.facts?.kind == .stream && node.state == .running {
      if let name = node.channelName,
        case let consumers = job.context.consumers(ofStream: name), consumers > 1
      {
        lints.append(
          JobLint(
            kind: .streamConsumers, job: id,
            why: "stream \(name) has \(consumers) consumers: an AsyncStream gives each element to one of them "
              + "(they split it), unlike a Combine subject, which gives each to all",
            fixing: { _ in
              "for every consumer to see each element, read a share fragment (let s = stream \(name) | share)"
            }))
      }
    }
    // An into waiting for a consumer says why the job produces nothing.
    if !nowhere, !lints.contains(where: { $0.kind == .sendWaiting }), let leak = leak(job, now: now) {
      lints.insert(leak, at: 0)
    }
    return lints + ignored
  }

  /// A `work … cooperative: false` that handed an element on after its task was cancelled: it
  /// finished its wait, and its consumer got the element, though the job had been cancelled; the
  /// job ended only after that. One warning per element so handed on, with where it went and when.
  static func ignoredCancellation(_ job: Job) -> [JobLint] {
    let handOffs = job.context.lateHandOffs
    guard !handOffs.isEmpty else { return [] }
    let nodes = Node.flattened(job.nodes)
    let cancelledAt = job.context.cancelledAt
    return handOffs.compactMap { handOff -> JobLint? in
      guard let node = nodes.first(where: { $0.id == handOff.nodeID }), node.facts?.ignoresCancellation == true
      else { return nil }
      let value = TraceFile.EventKind(.element(handOff.value)).described.dropFirst(2)
      let receiver = node.downstream.map { " on to \($0.text)" } ?? " on"
      let cancel =
        cancelledAt.map { "the job was cancelled at \($0.stampText)" }
        ?? "its task was cancelled (its consumer stopped)"
      let end: String
      if job.state == .running {
        end = "the job has not ended yet"
      } else {
        let endedAt = job.context.start.offset + job.elapsed
        let late = cancelledAt.map { ", \((endedAt - $0).secondsText) after the cancel" } ?? ""
        end = "the job ended at \(endedAt.stampText)\(late)"
      }
      return JobLint(
        kind: .ignoredCancellation, job: job.id,
        why: "\(node.text) ignored the cancellation: \(cancel), yet it finished its wait (begun at "
          + "\(handOff.waitBegan.stampText)) and handed \(value)\(receiver) at \(handOff.handedAt.stampText); \(end)",
        fixing: { _ in
          "a cooperative work (work D) ends at the cancel; in Swift, wait in the task that is cancelled "
            + "(try await Task.sleep in the work itself, not in a Task { } it awaits)"
        })
    }
  }

  /// Tasks `spawn` started for the job that still run: no child of the job, nobody awaits or
  /// cancels them, so they outlive it (said while they run, the job's end included).
  package static func leftBehind(_ job: Job) -> [JobLint] {
    guard TaskViews.available else { return [] }
    return job.context.tasks.outliving.filter { $0.lifetime == .spawned }.map { task in
      let node = task.node.map { " by \($0.text)" } ?? ""
      let state =
        job.state == .running
        ? "job \(job.id) runs, and task \(task.id), started\(node), is no child of it: it will outlive the job"
        : "job \(job.id) ended, but task \(task.id), started\(node), still runs"
      return JobLint(
        kind: .taskLeftBehind, job: job.id,
        why: state + " (an unstructured task nobody awaits or cancels; cancelling the job does not reach it)",
        fixing: { _ in
          "await the work (flatMap { … } runs it in the job), or keep the Task and cancel it when the job ends"
        })
    }
  }

  /// A background job nobody waited for that has produced nothing (printed or sent no result) for
  /// `leakAfter`: running since, or since its last result.
  private static func leak(_ job: Job, now: Duration) -> JobLint? {
    guard job.background, !job.waitedFor, let sink = job.nodes.last else { return nil }
    let idle = sink.lastResult.map { now - $0 } ?? job.elapsed
    guard idle >= leakAfter else { return nil }
    let quiet = sink.lastResult == nil ? "" : " for the last \(idle.secondsText)"
    return JobLint(
      kind: .leak, job: job.id,
      why: "it has run \(job.elapsed.secondsText) in the background and produced nothing\(quiet); "
        + "nobody waited for it or cancelled it (a leak?)",
      fixing: { "cancel \($0) if it should have ended (wait \($0) waits for its end)" })
  }

  /// Whether a chain (source first) never ends by itself: its source never does, and no stage ends
  /// it. A `zip` ends with its shortest input; `merge`, `combineLatest` and `chain` with their
  /// longest.
  package static func endless(_ chain: [Node]) -> Bool {
    neverEndingSource(chain, closable: true) != nil
  }

  /// The source that keeps a chain from ending (`endless`), nil when the chain ends. With
  /// `closable: false` (nothing can send any more), a channel, stream or subject never ends either.
  static func neverEndingSource(_ chain: [Node], closable: Bool) -> Node? {
    guard let source = chain.first, !chain.contains(where: { $0.facts?.endsInputEarly == true }) else { return nil }
    guard !source.treeInputs.isEmpty else {
      guard let facts = source.facts, facts.endless || (!closable && facts.endsWhenClosed) else { return nil }
      return source
    }
    let inputs = source.treeInputs.map { neverEndingSource($0, closable: closable) }
    if source.facts?.endsWithShortestInput == true {
      return inputs.allSatisfy { $0 != nil } ? inputs.first ?? nil : nil
    }
    return inputs.lazy.compactMap { $0 }.first
  }

  /// Whether a chain (source first, its sink included) never waits for anything: an endless source
  /// that answers at once (`random` without `count:`), and after it nothing that ends it, paces it
  /// (`work`, `into`) or runs pipelines of its own (`flatMap`, whose bodies may wait). A `zip`
  /// never waits when none of its inputs does; the other combinators when one of them does not.
  static func neverWaits(_ chain: [Node]) -> Bool {
    guard let source = chain.first else { return false }
    for node in chain.dropFirst() {
      guard let facts = node.facts, !facts.endsInputEarly, !facts.pacesItsUpstream, node.children == nil else {
        return false
      }
    }
    guard !source.treeInputs.isEmpty else {
      guard let facts = source.facts else { return false }
      return facts.endless && facts.waitsOn == .nothing
    }
    let inputs = source.treeInputs.map(neverWaits)
    return source.facts?.endsWithShortestInput == true ? inputs.allSatisfy { $0 } : inputs.contains(true)
  }
}
