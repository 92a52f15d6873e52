import PipeRuntime
import PipeSema
import PipeSession
import PipeSyntax

/// How `tasks`, `inspect` and `trace` say what the runtime did with a job's tasks.
enum TaskView {
  /// `tasks N`: the job's line, then a row per task, each under its parent (a structured child)
  /// or under the task that made it (an unstructured one), in the order they were made.
  static func lines(_ job: Job) -> [String] {
    let tasks = job.context.tasks
    let records = tasks.records
    let colour = Paint.isOn(for: 1)
    var rows: [[String]] = [["TASK", "KIND", "NODE", "STARTED", "CANCELLED", "ENDED"]]
    for (record, lead) in tree(records) {
      rows.append([
        lead + "\(record.id)", record.kindText + lifetime(record), record.node?.text ?? "-", record.created.stampText,
        record.cancellation.map(cancellation) ?? "-",
        Paint.state(ending(record), on: colour),
      ])
    }
    let width = Format.screenWidth
    var header = "[\(job.id)] \(Paint.state(job.state.rawValue, on: colour)): \(job.text)"
    header += " · tasks: \(tasks.live) running, \(tasks.earlier + records.count - tasks.live) ended"
    var lines = [Format.shortened(header, to: width)] + Format.table(rows, fitting: width, shrinking: 2)
    if tasks.earlier > 0 { lines.append("(\(tasks.earlier) earlier tasks ended and are not kept)") }
    return lines
  }

  /// The records in tree order, with the lead that draws the tree (`├ `, `│ └ `).
  private static func tree(_ records: [TaskRecord]) -> [(TaskRecord, String)] {
    let ids = Set(records.map(\.id))
    let under = Dictionary(grouping: records) { record in
      (record.parent ?? record.creator).flatMap { ids.contains($0) ? $0 : nil }
    }
    var rows: [(TaskRecord, String)] = []
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
  static func lifetime(_ record: TaskRecord) -> String {
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
  static func state(_ record: TaskRecord) -> String {
    guard let end = record.end else { return record.cancellation == nil ? "running" : "running, cancelled" }
    let how = end.threw ? "threw" : record.cancellation == nil ? "ended" : "cancelled, ended"
    return "\(how) at \(end.time.stampText)"
  }

  /// Whether it runs, or when it ended and how.
  static func ending(_ record: TaskRecord) -> String {
    guard let end = record.end else { return "running" }
    return end.time.stampText + (end.threw ? " (threw)" : "")
  }
}
