import PipeSema
import PipeSession

/// What `top` has seen of each node from frame to frame: its counts at each frame of the last
/// seconds (for a rate) and when its count last changed (for the time since its last element).
package struct TopHistory {
  struct Key: Hashable {
    let job: Int
    /// The node (a share fragment's nodes are in the tree of every job that reads it).
    let node: ObjectIdentifier
  }

  private var samples: [Key: [(time: Duration, count: Int)]] = [:]
  private var changed: [Key: Duration] = [:]
  /// When a node was first seen, for one whose count has not changed since.
  private var firstSeen: [Key: Duration] = [:]
  /// The seconds a rate is taken over.
  package static let window = Duration.seconds(5)

  package init() {}

  /// Records every node's count at `now`.
  package mutating func sample(_ jobs: [JobSnapshot], at now: Duration) {
    for job in jobs {
      for case .node(let node, _, let input, let output) in Inspector.tree(job.nodes) {
        let key = Key(job: job.id, node: node.identity)
        // A sink's rate is of what it received.
        let count = node.isSink ? input ?? 0 : output
        var list = samples[key] ?? []
        if firstSeen[key] == nil { firstSeen[key] = now }
        if let last = list.last, last.count != count { changed[key] = now }
        list.append((now, count))
        list.removeAll { now - $0.time > Self.window }
        samples[key] = list
      }
    }
  }

  /// Elements a second over the window, once two frames have seen the node.
  func rate(_ key: Key) -> Double? {
    guard let list = samples[key], let first = list.first, let last = list.last, last.time > first.time else {
      return nil
    }
    return Double(last.count - first.count) / (last.time - first.time).inSecondsValue
  }

  /// How long since the node's count last changed, as far as the frames saw: `>` when it has not
  /// changed since top first saw it (nil in a snapshot: one look cannot tell).
  func sinceLast(_ key: Key, now: Duration) -> String? {
    if let changed = changed[key] { return (now - changed).secondsText }
    guard let first = firstSeen[key], now > first else { return nil }
    return ">" + (now - first).secondsText
  }
}

/// `top`'s screen, made from the jobs at one moment: a row per job and, for an expanded job, a
/// row per node in its tree as `inspect` draws it; the warnings under the table.
package struct TopView {
  package enum Column: Int, CaseIterable {
    case id = 1, state, time, out, rate

    var title: String {
      switch self {
      case .id: "ID"
      case .state: "STATE"
      case .time: "TIME"
      case .out: "OUT"
      case .rate: "RATE/s"
      }
    }
  }

  package var sort = Column.id
  package var descending = false
  package var filter = ""
  package var expanded: Set<Int> = []
  package var expandAll = false
  /// The selected job's id.
  package var selected: Int?

  package init() {}

  /// A job shown, with its warnings (worked out once a frame).
  package struct Shown {
    package let job: JobSnapshot
    package let lints: [JobLint]
  }

  /// The jobs shown, in the order sorted: running ones whose text holds the filter, each with the
  /// warnings `lints` gives of it.
  package func shown(_ jobs: [JobSnapshot], _ history: TopHistory, lints: (Int) -> [JobLint]) -> [Shown] {
    let running = jobs.filter { $0.state == .running && (filter.isEmpty || $0.text.contains(filter)) }
    let shown = running.map { Shown(job: $0, lints: lints($0.id)) }
    let keys = shown.map { shown -> Double in
      let job = shown.job
      switch sort {
      case .id: return Double(job.id)
      case .state: return Double(shown.lints.count)
      case .time: return job.elapsed.inSecondsValue
      case .out: return Double(job.output)
      case .rate: return sinkKey(job).flatMap(history.rate) ?? -1
      }
    }
    return shown.indices.sorted { left, right in
      let (a, b) = (keys[left], keys[right])
      return a == b ? shown[left].job.id < shown[right].job.id : (a < b) != descending
    }.map { shown[$0] }
  }

  private func sinkKey(_ job: JobSnapshot) -> TopHistory.Key? {
    job.nodes.last.map { TopHistory.Key(job: job.id, node: $0.identity) }
  }

  /// The lines of one frame in `width` × `height` (a snapshot: every job expanded, no height).
  package func lines(
    _ shown: [Shown], _ history: TopHistory, now: Duration, clock: String, width: Int, height: Int?
  ) -> [String] {
    let sortText = "sort: \(sort.title) \(descending ? "↓" : "↑")"
    let filterText = filter.isEmpty ? "" : " · filter: \(filter)"
    var lines = [
      Format.shortened(
        "pipesh top · \(shown.count) running · \(now.stampText) (\(clock) clock) · \(sortText)\(filterText)", to: width)
    ]
    // TASKS: the tasks running now for the job (its own and its operators'), and for each node those
    // its code started.
    var rows = [["", "ID", "STATE", "TASKS", "TIME", "IN", "OUT", "RATE/s", "LAST", "WAITS ON", "PIPELINE"]]
    var lints: [JobLint] = []
    for (job, warnings) in shown.map({ ($0.job, $0.lints) }) {
      lints += warnings
      let sink = sinkKey(job)
      rows.append([
        job.id == selected ? ">" : "", String(job.id) + (warnings.isEmpty ? "" : "!"), job.state.rawValue,
        TaskView.available ? String(job.liveTasks) : "-", job.elapsed.secondsText, "", String(job.output),
        Self.rateText(sink.flatMap(history.rate)),
        sinceText(sink.flatMap { history.sinceLast($0, now: now) }), "", job.text,
      ])
      guard height == nil || expandAll || expanded.contains(job.id) else { continue }
      nodeRows(job, history, now: now, into: &rows)
    }
    lines += Format.table(rows, fitting: width, shrinking: 10)
    if shown.isEmpty { lines.append(filter.isEmpty ? "no running jobs" : "no running job holds '\(filter)'") }
    lines += Lints.footnotes(lints, width: width)
    guard let height else { return lines }
    let help = "q quit · ↑↓ select · enter expand · e/c all · 1-5 sort (again: reverse) · / filter"
    var fitted = Array(lines.prefix(max(1, height - 1)))
    if lines.count > height - 1, let last = fitted.indices.last { fitted[last] = "… \(lines.count - last) more lines" }
    return fitted + [Format.shortened(help, to: width)]
  }

  /// A job's nodes, indented as `inspect` draws its tree, with its counts.
  private func nodeRows(_ job: JobSnapshot, _ history: TopHistory, now: Duration, into rows: inout [[String]]) {
    var running: [ObjectIdentifier: Int] = [:]
    for task in job.tasks where task.end == nil && TaskView.available {
      if let node = task.node { running[node, default: 0] += 1 }
    }
    for row in Inspector.tree(job.nodes, prefix: "  ", branch: "  ") {
      switch row {
      case .node(let node, let lead, let input, let output):
        let key = TopHistory.Key(job: job.id, node: node.identity)
        let state = node.reason.map { "\(node.state.rawValue) (\($0))" } ?? node.state.rawValue
        // A node handed nothing is a source.
        let waits = node.state == .running ? Self.waitsOn(node, first: input == nil, now: now) : ""
        rows.append([
          "", "", state, running[node.identity].map(String.init) ?? "", "", input.map(String.init) ?? "-",
          String(output), Self.rateText(history.rate(key)),
          sinceText(history.sinceLast(key, now: now)), waits, lead + node.text,
        ])
      case .earlier(let text): rows.append(["", "", "", "", "", "", "", "", "", "", text])
      }
    }
  }

  /// What a running node waits on. As it records: an `into` waiting for a consumer to take its
  /// element; a node its consumer is not asking (the consumer is busy with its last element); a
  /// `share` holding elements for its slowest reader. A node that is asked, as its kind says: a
  /// source on its clock or a sender, any other node on its upstream's `next()` (and, for one
  /// with a clock, on its clock too).
  package static func waitsOn(_ node: NodeSnapshot, first: Bool, now: Duration) -> String {
    switch node.waiting {
    case .consumerToTake(let since): "a consumer (\((now - since).secondsText))"
    case .consumerToAsk: "its consumer to ask"
    case .slowestReader(let held): "its slowest reader (\(held) held)"
    case .operation(let place): waitsOn(place, first: first)
    // Its inputs' nodes, shown under it, say where.
    case .inputs: "-"
    }
  }

  /// Where a node of an operator waits when asked, as its facts say.
  static func waitsOn(_ place: WaitPlace, first: Bool) -> String {
    switch place {
    case .nothing: "-"
    case .clock: "the clock"
    case .send: "a send"
    case .standardInput: "standard input"
    case .file: "its file"
    case .forever: "nothing (never)"
    // A combinator asks its inputs (shown under it).
    case .upstream: first ? "-" : "upstream next()"
    case .upstreamAndClock: "upstream, the clock"
    case .consumer: "upstream next()"
    }
  }

  /// A rate to a tenth (`-`: none yet); the attached program's `top` writes its rates so too.
  package static func rateText(_ rate: Double?) -> String {
    guard let rate else { return "-" }
    let tenths = Int((rate * 10).rounded())
    return "\(tenths / 10).\(abs(tenths % 10))"
  }

  private func sinceText(_ text: String?) -> String {
    text ?? "-"
  }
}
