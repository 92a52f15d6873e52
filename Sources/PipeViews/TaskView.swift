import PipeSema
import PipeSession
import PipeSyntax

/// How `tasks`, `inspect` and `trace` say what the runtime did with a job's tasks.
package enum TaskView {
  /// Whether tasks can be shown on this system, and what is said instead (`TaskViews`).
  package static var available: Bool { TaskVisibility.available }
  package static var unavailable: String { TaskVisibility.unavailable }

  /// `tasks N`: the job's line, then a row per task, each under its parent (a structured child)
  /// or under the task that made it (an unstructured one), in the order they were made.
  /// The tasks of pipesh's own workarounds and stops of an operator's input are folded into one
  /// counted line unless `everyTask` (`tasks N all`): they are not what the operators do.
  package static func lines(_ job: JobSnapshot, everyTask: Bool = false) -> [String] {
    guard available else { return ["(\(unavailable))"] }
    let records = job.tasks
    let shown = everyTask ? records : records.filter { !isBookkeeping($0) }
    let colour = Paint.isOn(for: 1)
    var rows: [[String]] = [["TASK", "KIND", "NODE", "STARTED", "CANCELLED", "ENDED"]]
    for (record, lead) in tree(shown, all: records) {
      rows.append([
        lead + "\(record.id)", record.kindText + lifetime(record), record.nodeText ?? "-", record.created.stampText,
        record.cancellation.map(cancellation) ?? "-",
        Paint.state(ending(record), on: colour),
      ])
    }
    let width = Format.screenWidth
    var header = "[\(job.id)] \(Paint.state(job.state.rawValue, on: colour)): \(job.text)"
    header += " · tasks: \(job.liveTasks) running, \(job.earlierTasks + records.count - job.liveTasks) ended"
    var lines = [Format.shortened(header, to: width)] + Format.table(rows, fitting: width, shrinking: 2)
    let folded = records.count - shown.count
    if folded > 0 {
      let running = records.filter { isBookkeeping($0) && $0.end == nil }.count
      // Within 80 columns: what they are is in help tasks.
      lines.append(
        "(\(folded) of pipesh's own task\(folded == 1 ? "" : "s") not shown, \(running) running; "
          + "tasks \(job.id) all shows them)")
    }
    if job.earlierTasks > 0 { lines.append("(\(job.earlierTasks) earlier tasks ended and are not kept)") }
    return lines
  }

  /// A task of pipesh's own bookkeeping: a workaround of an AA bug, or the stop of an operator's
  /// input; not spawn's, nor those of the operators pipesh implements (flatMap's, timeout's).
  static func isBookkeeping(_ record: TaskSnapshot) -> Bool {
    record.madeBy?.isBookkeeping ?? false
  }

  /// The records in tree order, with the lead that draws the tree (`├ `, `│ └ `).
  /// A task whose parent or creator is not shown stands under the nearest one that is.
  private static func tree(_ records: [TaskSnapshot], all: [TaskSnapshot]) -> [(TaskSnapshot, String)] {
    let ids = Set(records.map(\.id))
    let byID = Dictionary(all.map { ($0.id, $0) }) { first, _ in first }
    func owner(_ record: TaskSnapshot) -> Int? {
      var next = record.parent ?? record.creator
      var steps = 0
      while let id = next, !ids.contains(id), steps < all.count {
        next = byID[id].flatMap { $0.parent ?? $0.creator }
        steps += 1
      }
      return next.flatMap { ids.contains($0) ? $0 : nil }
    }
    let under = Dictionary(grouping: records, by: owner)
    var rows: [(TaskSnapshot, String)] = []
    func walk(_ owner: Int?, _ lead: String) {
      let children = under[owner] ?? []
      for (index, record) in children.enumerated() {
        let last = index == children.count - 1
        rows.append((record, owner == nil ? "" : lead + (last ? "└ " : "├ ")))
        walk(record.id, owner == nil ? "" : lead + (last ? "  " : "│ "))
      }
    }
    walk(nil, "")
    return rows
  }

  /// What a task that outlives its job lives for, after its kind.
  static func lifetime(_ record: TaskSnapshot) -> String {
    switch record.lifetime {
    case .job: ""
    case .spawned: " (outlives the job)"
    case .sharedFragment(let name): " (share fragment '\(name)'s, outlives the job)"
    }
  }

  /// When and by what it was cancelled.
  static func cancellation(_ cancelled: (time: Duration, by: TaskCanceller)) -> String {
    "\(cancelled.time.stampText) \(cancelled.by.described)"
  }

  /// Its state in a word or two, with when it ended (`inspect`).
  static func state(_ record: TaskSnapshot) -> String {
    guard let end = record.end else { return record.cancellation == nil ? "running" : "running, cancelled" }
    let how = end.threw ? "threw" : record.cancellation == nil ? "ended" : "cancelled, ended"
    return "\(how) at \(end.time.stampText)"
  }

  /// Whether it runs, or when it ended and how.
  static func ending(_ record: TaskSnapshot) -> String {
    guard let end = record.end else { return "running" }
    return end.time.stampText + (end.threw ? " (threw)" : "")
  }
}
