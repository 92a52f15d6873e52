import Locking
import PipeSema
import PipeSession
import PipeSyntax
import TraceFormat

/// `trace`: prints one line per lifecycle event, `+TIME [JOB] NODE EVENT`.
package final class TraceObserver: TraceWatcher {
  /// Where each line goes: the console, or the lines kept for a page (`--html`, `to: "F.html"`).
  private let write: @Sendable (String) -> Void
  let width: Int

  /// The screen's width: each line fits it.
  let screenWidth = Format.screenWidth
  /// Whether the end of each node is coloured.
  let colour: Bool

  /// Keeps the lines in `kept`, uncoloured, as the terminal would have printed them.
  package convenience init(keepingIn kept: Locked<[String]>, labels: [String]) {
    self.init(labels: labels, colour: false) { line in kept.withLock { $0.append(line) } }
  }

  package init(labels: [String], colour: Bool, write: @escaping @Sendable (String) -> Void) {
    self.write = write
    self.colour = colour
    // A label takes at most two fifths of the screen; a longer one is shortened with `…`.
    self.width = min(labels.map(Format.columns).max() ?? 0, max(12, screenWidth * 2 / 5))
  }

  package func node(time: Duration, job: Int, label: String, _ kind: TraceFile.EventKind) {
    show(time: time, job: job, label: label, kind)
  }

  package func task(time: Duration, job: Int, task: Int, label: String, _ kind: TraceFile.TaskEventKind) {
    show(time: time, job: job, task: task, label: label, kind)
  }

  /// One line of the trace: a live event's, or a saved one's (`replay`).
  package func show(time: Duration, job: Int, label: String, _ kind: TraceFile.EventKind) {
    // Demand is saved and drawn (`draw … demand: true`), not printed: it would double the trace.
    guard !kind.isDemand else { return }
    line(time: time, job: job, label: label, Paint.state(kind.described, on: colour))
  }

  /// A task's line: under the node whose code made it (the job's own task: under no node).
  package func show(time: Duration, job: Int, task: Int, label: String, _ kind: TraceFile.TaskEventKind) {
    line(time: time, job: job, label: label, "task \(task) \(kind.described)")
  }

  private func line(time: Duration, job: Int, label: String, _ text: String) {
    let label = Format.pad(Format.shortened(label.showingEveryControlCharacter, to: width), width)
    write(Format.shortened("\(time.stampText) [\(job)] \(label)  \(text)", to: screenWidth))
  }
}

package extension Inspector {
  /// What a running share holds for readers that have not taken it yet; what the stream a running
  /// node reads holds, sent and not yet taken (before the node's detail, which a narrow screen cuts).
  private static func held(_ node: NodeSnapshot) -> String {
    guard node.state == .running else { return "" }
    if let held = node.shareHeld, held > 0 { return " (holds \(held) for its slowest reader)" }
    if let held = node.streamHeld, held > 0 { return " (holds \(held) unread)" }
    return ""
  }

  static func lines(_ job: JobSnapshot) -> [String] {
    let colour = Paint.isOn(for: 1)
    var rows: [[String]] = [["NODE", "STATE", "IN", "OUT"]]
    // The tasks each node's code started, under it (`tasks N` draws their tree; the job's own task
    // is there too).
    let records = job.tasks
    var byNode: [ObjectIdentifier: [TaskSnapshot]] = [:]
    for record in records { if let node = record.node { byNode[node, default: []].append(record) } }
    func taskRows(_ tasks: [TaskSnapshot], lead: String) {
      guard TaskView.available else { return }
      for task in tasks {
        rows.append([lead + "· task \(task.id): \(task.kindText)", Paint.state(TaskView.state(task), on: colour)])
      }
    }
    for row in tree(job.nodes) {
      switch row {
      case .node(let node, let lead, let input, let output):
        let state = Paint.state(
          node.reason.map { "\(node.state.rawValue) (\($0))" } ?? node.state.rawValue, on: colour)
        let text = node.text + held(node) + (node.detail.map { " (\($0))" } ?? "")
        rows.append([lead + text, state, input.map(String.init) ?? "-", String(output)])
        let indent = String(lead.map { $0 == "├" || $0 == "│" ? "│" : " " })
        taskRows(
          byNode[node.identity] ?? [],
          lead: indent + (node.treeInputs.isEmpty && !node.buildsChildren ? "  " : "│ "))
      case .earlier(let text): rows.append([text, "", "", ""])
      }
    }
    // Tasks the job's own task made outside every node's `next()` (as its iterators were let go).
    let outside = records.filter { $0.node == nil && $0.origin != .job }
    if !outside.isEmpty, TaskView.available {
      rows.append(["outside every node's next():"])
      taskRows(outside, lead: "")
    }
    if !TaskView.available {
      rows.append(["(no task rows: \(TaskView.unavailable))"])
    } else if job.earlierTasks > 0 {
      rows.append(["· \(job.earlierTasks) earlier tasks ended and are not kept"])
    }
    let width = Format.screenWidth
    let header =
      "[\(job.id)] \(Paint.state(job.state.rawValue, on: colour)) after \(job.elapsed.secondsText): \(job.text)"
    return [Format.shortened(header, to: width)] + Format.table(rows, fitting: width, shrinking: 0)
  }
}
