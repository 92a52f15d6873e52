import PipeRuntime
import PipeSema
import VirtualTime

/// A node as the views show it, read at one moment: its state, counts and what it waits on, and
/// the nodes under it (its inputs, a share fragment it reads, the pipelines a flatMap built). The
/// views (`inspect`, `top`, `tasks`, `jobs`, `lint`) read these, never the runtime's live records.
public struct NodeSnapshot: Sendable {
  /// The node's identity: the same in every snapshot of one run (a share fragment's nodes are in
  /// the tree of every job that reads it).
  public let identity: ObjectIdentifier
  public let text: String
  public let kind: NodeKind
  public let facts: OperatorFacts?
  public let state: NodeState
  public let reason: String?
  public let isSink: Bool
  public let detail: String?
  public let waiting: NodeWait
  /// Since when an `into` has waited for a consumer to take its element.
  public let waitingSince: Duration?
  /// The most a buffer keeps before its policy drops.
  public let dropsBeyond: Int?
  /// What a share holds for its slowest reader, and how many read it; what a stream holds unread.
  public let shareHeld: Int?
  public let shareConsumers: Int?
  public let streamHeld: Int?
  /// What it was handed and what it passed on, read downstream first (`Inspector.counts`).
  public let input: Int
  public let output: Int
  public let inputs: [[NodeSnapshot]]
  /// The nodes of the share fragment a job's reading of it reads.
  public let fragment: [NodeSnapshot]
  /// The pipelines a flatMap built that it keeps, and how many earlier ones it let go.
  public let children: [[NodeSnapshot]]
  public let earlierChildren: Int
  /// Whether it is a flatMap's (it has child pipelines, kept or not).
  public let buildsChildren: Bool

  /// Its inputs as `inspect`, `top` and `lint` show them: a job's reading of a share fragment
  /// shows the fragment's nodes in every job that reads it.
  public var treeInputs: [[NodeSnapshot]] {
    inputs.isEmpty && !fragment.isEmpty ? [fragment] : inputs
  }

  /// The snapshots of `nodes` and every node under them, their counts read once each, downstream
  /// first, so that a node is never seen with more than its upstream passed on.
  package static func of(_ nodes: [Node]) -> [NodeSnapshot] {
    let counts = Inspector.counts(nodes)
    func snapshot(_ node: Node) -> NodeSnapshot {
      let count = counts[ObjectIdentifier(node)] ?? (node.input, node.output)
      return NodeSnapshot(
        identity: ObjectIdentifier(node), text: node.text, kind: node.kind, facts: node.facts, state: node.state,
        reason: node.reason, isSink: node.isSink, detail: node.detail, waiting: node.waiting,
        waitingSince: node.waitingSince, dropsBeyond: node.dropsBeyond, shareHeld: node.shareLedger?.held,
        shareConsumers: node.shareLedger?.consumers, streamHeld: node.streamLedger?.held, input: count.input,
        output: count.output, inputs: node.inputs.map { $0.map(snapshot) }, fragment: node.fragment.map(snapshot),
        children: (node.children?.all ?? []).map { $0.map(snapshot) }, earlierChildren: node.children?.earlier ?? 0,
        buildsChildren: node.children != nil)
    }
    return nodes.map(snapshot)
  }
}

/// A node named in a view: which it is, what it says, and the facts a view words it by (`why`'s
/// accounts, `draw`'s lanes).
public struct NodeRef: Sendable {
  public let identity: ObjectIdentifier
  public let text: String
  public let isSink: Bool
  public let facts: OperatorFacts?

  init(_ node: Node) {
    identity = ObjectIdentifier(node)
    text = node.text
    isSink = node.isSink
    facts = node.facts
  }
}

/// A task that ran for a job, as `tasks`, `inspect` and `top` show it, read at one moment.
public struct TaskSnapshot: Sendable {
  public let id: Int
  public let origin: TaskOrigin
  /// The task whose child it is (structured tasks only), and the task that made it.
  public let parent: Int?
  public let creator: Int?
  /// The node whose code made it, and its text; nil for the job's own task and one made outside
  /// every node's `next()`.
  public let node: ObjectIdentifier?
  public let nodeText: String?
  public let created: Duration
  public let lifetime: TaskLifetime
  public let madeBy: PipeshTask?
  public let cancellation: (time: Duration, by: TaskCanceller)?
  public let end: (time: Duration, threw: Bool)?
  /// Its kind, as `tasks` and `trace` say it.
  public let kindText: String

  init(_ record: TaskRecord) {
    id = record.id
    origin = record.origin
    parent = record.parent
    creator = record.creator
    node = record.node.map(ObjectIdentifier.init)
    nodeText = record.node?.text
    created = record.created
    lifetime = record.lifetime
    madeBy = record.madeBy
    cancellation = record.cancellation
    end = record.end
    kindText = record.kindText
  }
}

/// A job as the views show it, read at one moment.
public struct JobSnapshot: Sendable {
  public let id: Int
  public let text: String
  public let state: JobState
  public let background: Bool
  public let elapsed: Duration
  /// When it started, on the session's clock.
  public let start: Duration
  /// What its sink received.
  public let output: Int
  public let nodes: [NodeSnapshot]
  /// The tasks it keeps a record of; how many run now; how many earlier ones ended and are not kept.
  public let tasks: [TaskSnapshot]
  public let liveTasks: Int
  public let earlierTasks: Int

  /// The job as it is now.
  package init(_ job: Job) {
    id = job.id
    text = job.text
    state = job.state
    background = job.background
    elapsed = job.elapsed
    start = job.context.start.offset
    nodes = NodeSnapshot.of(job.nodes)
    output = nodes.last { $0.isSink }?.input ?? 0
    let tasks = job.context.tasks
    self.tasks = tasks.records.map(TaskSnapshot.init)
    liveTasks = tasks.live
    earlierTasks = tasks.earlier
  }
}

/// Whether this system lets pipesh see a job's tasks (the Swift runtime's task hooks), and what
/// the views say where it does not.
public enum TaskVisibility {
  public static var available: Bool { TaskViews.available }
  public static var unavailable: String { TaskViews.unavailable }
}

extension Engine {
  /// Whether a shell fuses runs of synchronous stages unless told (`PIPESH_FUSION`).
  public static var fusesByDefault: Bool { Instrumentation.fusion }

  /// Waits for the jobs numbered `ids` (those that exist), as `waitForAll` does.
  public func waitForAll(ids: [Int], deadlock: String, stopped: String) async {
    await waitForAll(ids.compactMap(jobs.job), deadlock: deadlock, stopped: stopped)
  }

  /// The numbers of the jobs running now.
  public var runningJobIDs: [Int] { jobs.running.map(\.id) }

  /// Job `id` as it is now; nil when there is none.
  public func snapshot(ofJob id: Int) -> JobSnapshot? {
    jobs.job(id).map(JobSnapshot.init)
  }

  /// Every job the session keeps, as it is now, in the order they started.
  public var jobSnapshots: [JobSnapshot] { jobs.all.map(JobSnapshot.init) }

  /// The running jobs, as they are now (`top` reads them each frame).
  public var runningJobSnapshots: [JobSnapshot] { jobs.running.map(JobSnapshot.init) }

  /// Whether the session has a job numbered `id`.
  public func hasJob(_ id: Int) -> Bool { jobs.job(id) != nil }

  /// The text of job `id`, nil when there is none.
  public func text(ofJob id: Int) -> String? { jobs.job(id)?.text }

  /// The warnings about job `id` now (`lint`), worked out from the live job.
  public func lints(ofJob id: Int) -> [JobLint] {
    jobs.job(id).map(Lints.of) ?? []
  }

  /// The warnings about every job now, job by job.
  public var lints: [JobLint] { jobs.all.flatMap(Lints.of) }
}

extension Engine {
  /// The order a token names, over the tasks that take part in choices (the operators' and the
  /// pipeline's, never pipesh's bookkeeping), for `explore`, `draw P order:` and `expect … in:
  /// every order`.
  public static func order(replaying choices: [Int]) -> ChoiceOrder { .overJobTasks(replaying: choices) }

  /// An order at random, each choice drawn from `seed`, over the same tasks.
  public static func order(randomFrom seed: UInt64) -> ChoiceOrder { .overJobTasks(randomFrom: seed) }

  /// The clock's own order, watched for the choices it passes (`draw`'s note that a drawing is
  /// one order of several).
  public static func orderWatchingChoices() -> ChoiceOrder { .watchingJobTasks() }
}
