import CPipeSupport
import Locking
import PipeSema
import Synchronization
import VirtualTime

/// Whether this system's task views can be trusted. They see tasks through the runtime's entry
/// points, which `CPipeSupport/tasks.c` replaces in the executable; that has been built and run on
/// Linux only (README's "Platforms"), and elsewhere a view would show only the tasks it happened
/// to see: a tree missing tasks would be false. So every view of tasks (`tasks`, `inspect`'s task
/// rows, the page's task tree, the lint of a task left behind) asks this first.
public enum TaskViews {
  #if os(Linux)
    public static let available = true
  #else
    public static let available = false
  #endif

  /// What a view says instead where they are not available.
  public static let unavailable =
    "the task views are Linux-only (untried on this system, and a tree missing tasks would be false)"
}

/// Every task of every job, as the Swift runtime creates, cancels and ends it (`tasks.c` hooks
/// the runtime's entry points): the one place tasks are recorded. A task belongs to the job of
/// the task that created it; a job's own task is named as such when the job starts it.
enum TaskBook {
  /// Tasks of jobs running now, process-wide.
  static let live = Atomic<Int>(0)

  private struct Entry {
    let record: TaskRecord
    let tasks: JobTasks
    /// The runtime's final step for the task, which its end goes on to.
    let finalStep: UInt
    /// The task group it is a child of, and its parent task, by address (0: none; plain words keep
    /// every entry of the table 16 bytes smaller).
    let group: UInt
    let parent: UInt
  }

  /// Tasks running now, by address (an address is reused only after its task has ended).
  private static let entries = Locked<[UInt: Entry]>([:])

  /// Sets the hooks, once: before a job's first task is made.
  static let installed: Bool = {
    let hooks = UnsafeMutablePointer<PipeTaskHooks>.allocate(capacity: 1)
    hooks.initialize(
      to: PipeTaskHooks(
        created: { task, creator, flags, group, finalStep, cancelled in
          TaskBook.created(
            UInt(bitPattern: task), by: creator.map { UInt(bitPattern: $0) }, flags: flags,
            group: group.map { UInt(bitPattern: $0) }, finalStep: UInt(bitPattern: finalStep),
            cancelled: cancelled != 0) ? 1 : 0
        },
        ended: { _, task, threw in
          TaskBook.ended(task.map { UInt(bitPattern: $0) }, threw: threw != 0)
        },
        cancelled: { task, current, cancelling in
          guard let task else { return }
          TaskBook.cancelled(
            UInt(bitPattern: task), by: current.map { UInt(bitPattern: $0) },
            handling: cancelling.map { UInt(bitPattern: $0) })
        },
        groupCancelled: { group, current, cancelling in
          guard let group else { return }
          TaskBook.groupCancelled(
            UInt(bitPattern: group), by: current.map { UInt(bitPattern: $0) },
            handling: cancelling.map { UInt(bitPattern: $0) })
        }))
    // First: from the moment the hooks are in, a task's first enqueue is held back while it is made.
    VirtualDriver.installHook(holdingBack: pipe_task_defer_enqueue)
    pipe_task_hooks_install(hooks)
    return true
  }()

  /// Makes a job's own task with `make`, recorded as `tasks`' first.
  static func startingJob<T>(_ tasks: JobTasks, _ make: () -> T) -> T {
    _ = installed
    pipe_task_set_pending_root(Unmanaged.passUnretained(tasks).toOpaque())
    defer { pipe_task_set_pending_root(nil) }
    return make()
  }

  /// Makes tasks with `make`, recorded as made by `code` of pipesh's own (`spawn`'s outlive
  /// their job).
  static func making<T>(_ code: PipeshTask, _ make: () throws -> T) rethrows -> T {
    let before = pipe_task_set_made_by(code.rawValue)
    defer { _ = pipe_task_set_made_by(before) }
    return try make()
  }

  /// Whether the task at `address` takes part in `explore`'s choices: a task of a job that is not
  /// pipesh's own bookkeeping (`PipeshTask.isBookkeeping`). Tasks made outside every job (the
  /// engine's waits on the clock) take no part.
  static func takesPartInChoices(_ address: UInt) -> Bool {
    entries.withLock { $0[address] }.map { !($0.record.madeBy?.isBookkeeping ?? false) } ?? false
  }

  // MARK: what the runtime reports

  private static func created(
    _ task: UInt, by creator: UInt?, flags: Int, group: UInt?, finalStep: UInt, cancelled: Bool
  ) -> Bool {
    let root = pipe_task_pending_root().map { Unmanaged<JobTasks>.fromOpaque($0).takeUnretainedValue() }
    let madeBy = PipeshTask(rawValue: pipe_task_made_by())
    let made = entries.withLock { entries -> (TaskRecord, JobTasks)? in
      let origin: TaskOrigin
      let tasks: JobTasks
      let maker = creator.flatMap { entries[$0] }
      if let root {
        (origin, tasks) = (.job, root)
      } else if let maker {
        (origin, tasks) = (TaskOrigin(flags: flags, inGroup: group != nil), maker.tasks)
      } else {
        return nil
      }
      let structured = origin.isStructured
      let node = origin == .job ? nil : node(of: tasks, askedBy: creator) ?? maker?.record.node
      let lifetime: TaskLifetime =
        if madeBy == .spawn { .spawned } else if let fragment = node.flatMap(tasks.sharedFragment) {
          .sharedFragment(fragment)
        } else { maker?.record.lifetime ?? .job }
      let record = TaskRecord(
        id: tasks.nextID(), book: tasks, origin: origin,
        parent: structured ? maker?.record.id : nil, creator: origin == .job ? nil : maker?.record.id,
        node: node, created: tasks.now, lifetime: lifetime, madeBy: madeBy)
      entries[task] = Entry(
        record: record, tasks: tasks, finalStep: finalStep, group: group ?? 0, parent: structured ? creator ?? 0 : 0)
      return (record, tasks)
    }
    guard let (record, tasks) = made else { return false }
    tasks.added(record)
    if cancelled { tasks.cancelled(record, at: record.created, by: .atCreation) }
    return true
  }

  /// The most upstream node `task` is inside the `next()` of, if any: the node whose code made a
  /// task while that task asked it.
  private static func node(of tasks: JobTasks, askedBy task: UInt?) -> Node? {
    guard let task else { return nil }
    return Node.flattened(tasks.nodes).first { $0.isAsked(by: task) }
  }

  private static func ended(_ task: UInt?, threw: Bool) -> UnsafeMutableRawPointer {
    guard let task, let entry = entries.withLock({ $0.removeValue(forKey: task) }),
      let finalStep = UnsafeMutableRawPointer(bitPattern: entry.finalStep)
    else {
      // The hook asks only for the ends of tasks recorded here, each once.
      preconditionFailure("a task pipesh did not record reached its end")
    }
    let now = entry.tasks.now
    if let pointer = UnsafeMutableRawPointer(bitPattern: task), pipe_task_is_cancelled(pointer) != 0 {
      entry.tasks.cancelled(entry.record, at: now, by: .unseen)
    }
    entry.tasks.ended(entry.record, threw: threw, at: now)
    return finalStep
  }

  /// Who calls `cancel()`: a cancellation handler of a task being cancelled, else the task running,
  /// else pipesh (nil).
  private static func caller(_ current: UInt?, handling: UInt?, in entries: [UInt: Entry]) -> TaskCanceller? {
    if let handled = handling.flatMap({ entries[$0] }) { return .handler(of: handled.record.id) }
    if let running = current.flatMap({ entries[$0] }) { return .task(running.record.id) }
    return nil
  }

  private static func cancelled(_ task: UInt, by current: UInt?, handling: UInt?) {
    let found = entries.withLock { entries -> [(Entry, TaskCanceller)] in
      guard let entry = entries[task] else { return [] }
      let canceller = caller(current, handling: handling, in: entries) ?? .pipesh
      return [(entry, canceller)] + children(of: [task], in: entries)
    }
    cancel(found)
  }

  private static func groupCancelled(_ group: UInt, by current: UInt?, handling: UInt?) {
    let found = entries.withLock { entries -> [(Entry, TaskCanceller)] in
      let canceller = TaskCanceller.group(by: caller(current, handling: handling, in: entries))
      let members = entries.filter { $0.value.group == group && group != 0 }.sorted {
        $0.value.record.id < $1.value.record.id
      }
      return members.map { ($0.value, canceller) } + children(of: members.map(\.key), in: entries)
    }
    cancel(found)
  }

  /// The structured descendants of `tasks`: the runtime cancels them with their parent.
  private static func children(of tasks: [UInt], in entries: [UInt: Entry]) -> [(Entry, TaskCanceller)] {
    var found: [(Entry, TaskCanceller)] = []
    var parents = tasks
    while let parent = parents.popLast() {
      guard let parentEntry = entries[parent] else { continue }
      for (address, entry) in entries where entry.parent == parent && parent != 0 {
        found.append((entry, .parent(parentEntry.record.id)))
        parents.append(address)
      }
    }
    return found.sorted { $0.0.record.id < $1.0.record.id }
  }

  private static func cancel(_ found: [(Entry, TaskCanceller)]) {
    for (entry, canceller) in found where entry.record.cancellation == nil {
      entry.tasks.cancelled(entry.record, at: entry.tasks.now, by: canceller)
    }
  }
}

extension ChoiceOrder {
  /// An order over the tasks of jobs (`explore`'s): pipesh's own bookkeeping takes no part.
  public static func overJobTasks(replaying choices: [Int]) -> ChoiceOrder {
    ChoiceOrder(replaying: choices, takesPart: TaskBook.takesPartInChoices)
  }

  /// An order at random over the tasks of jobs (`explore`'s, after its depth-first ones).
  public static func overJobTasks(randomFrom seed: UInt64) -> ChoiceOrder {
    ChoiceOrder(randomFrom: seed, takesPart: TaskBook.takesPartInChoices)
  }

  /// The clock's own order over the tasks of jobs, watched for the choices `explore` would make
  /// (`draw`'s note that its run is one order of several).
  public static func watchingJobTasks() -> ChoiceOrder {
    ChoiceOrder(watching: TaskBook.takesPartInChoices)
  }
}
