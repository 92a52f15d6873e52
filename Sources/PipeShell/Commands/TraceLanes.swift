import PipeSema
import PipeSession
import PipeSyntax
import PipeViews
import TraceFormat

/// A saved trace's node events as lanes: one per node, in the order of the labels its job was
/// traced with (a node `trace` did not name, such as a `flatMap`'s inner pipeline's, after
/// them), the jobs in the order they came; times from the first event. A job's implicit sink
/// (`"implicitSink":true`) is left out, as `draw P` leaves it out.
struct TraceLanes {
  struct Row {
    let label: String
    /// Its events, demand too (`draw "F.trace" demand: true` reads them).
    var all: [(Duration, TraceFile.EventKind)]
    /// Its events as a lane draws them: elements, start and end.
    var events: [(Duration, TraceFile.EventKind)] { all.filter { !$0.1.isDemand } }
  }

  private(set) var rows: [Row] = []
  /// The same rows in the order of `draw P to:`'s picture, a flatMap's pipelines under it, with
  /// how deep each stands.
  private(set) var pictureRows: [(row: Row, depth: Int)] = []

  private struct TracedNode {
    let job: Int
    let id: Int
    let label: String
    let built: TraceFile.Built?
  }

  /// With `only`, the lanes of those labels alone (`draw NAME` in an attached session).
  init(_ recording: TraceFile.Recording, until: Duration?, only: Set<String>? = nil) {
    let origin = recording.events.first?.time ?? .zero
    var labels: [Int: [String]] = [:]
    var implicitSinks: Set<Int> = []
    var byNode: [[Int]: Int] = [:]
    var nodes: [TracedNode] = []
    var events: [[(Duration, TraceFile.EventKind)]] = []
    for event in recording.events {
      switch event.what {
      case .job(_, let jobLabels, let implicitSink):
        labels[event.job] = jobLabels
        if implicitSink { implicitSinks.insert(event.job) }
      case .output, .task: continue
      case .node(let id, let label, let kind, let built):
        if let only, !only.contains(label) { continue }
        let time = event.time - origin
        if let until, time > until { continue }
        let key = [event.job, id]
        if byNode[key] == nil {
          byNode[key] = nodes.count
          nodes.append(TracedNode(job: event.job, id: id, label: label, built: built))
          events.append([])
        }
        if let index = byNode[key] { events[index].append((time, kind)) }
      }
    }
    let jobs = nodes.reduce(into: [Int]()) { jobs, node in if !jobs.contains(node.job) { jobs.append(node.job) } }
    let many = jobs.count > 1
    var order: [(index: Int, depth: Int)] = []
    var pictureOrder: [(index: Int, depth: Int)] = []
    for job in jobs {
      let jobLabels = labels[job] ?? recording.labels
      var ofJob = nodes.indices.filter { nodes[$0].job == job }.sorted { nodes[$0].id < nodes[$1].id }
      // The implicit sink is the last label's node, of the pipeline's own (no flatMap built it).
      if labels[job] == nil ? recording.implicitSink : implicitSinks.contains(job),
        let sink = ofJob.last(where: { nodes[$0].built == nil && nodes[$0].label == jobLabels.last })
      {
        ofJob.removeAll { $0 == sink }
      }
      if ofJob.contains(where: { nodes[$0].built != nil }) {
        let (text, picture) = Self.ordered(ofJob, nodes, labels: jobLabels)
        order += text
        pictureOrder += picture
      } else {
        let text = Self.orderedByLabel(ofJob, nodes, labels: jobLabels)
        order += text
        pictureOrder += text
      }
    }
    func row(_ index: Int) -> Row {
      // A label is shown on one line, its control characters escaped (a trace's are the program's).
      let label = nodes[index].label.showingEveryControlCharacter
      return Row(label: many ? "[\(nodes[index].job)] \(label)" : label, all: events[index])
    }
    rows = order.map { row($0.index) }
    pictureRows = pictureOrder.map { (row($0.index), $0.depth) }
  }

  /// A job's nodes in the order of its labels (`trace` names the pipeline's own nodes), each
  /// node's built pipelines before it (text) or under it (picture), as `draw P` orders them: the
  /// trace says which node built which, and where among them each stands.
  private static func ordered(
    _ ofJob: [Int], _ nodes: [TracedNode], labels: [String]
  ) -> (text: [(index: Int, depth: Int)], picture: [(index: Int, depth: Int)]) {
    var top = ofJob.filter { nodes[$0].built == nil }
    var named: [Int] = []
    for label in labels {
      guard let found = top.firstIndex(where: { nodes[$0].label == label }) else { continue }
      named.append(top.remove(at: found))
    }
    var built: [Int: [Int]] = [:]
    for index in ofJob {
      if let parent = nodes[index].built?.parent { built[parent, default: []].append(index) }
    }
    for (parent, children) in built {
      built[parent] = children.sorted { (nodes[$0].built?.rank ?? 0, $0) < (nodes[$1].built?.rank ?? 0, $1) }
    }
    var placed = Set<Int>()
    func text(_ index: Int, _ depth: Int) -> [(index: Int, depth: Int)] {
      guard placed.insert(index).inserted else { return [] }
      return (built[nodes[index].id] ?? []).flatMap { text($0, depth + 1) } + [(index, depth)]
    }
    let roots = named + top
    var textOrder = roots.flatMap { text($0, 0) }
    // Nodes whose builder the trace does not hold (cut by until:, say) go last, as they came.
    textOrder += ofJob.filter { !placed.contains($0) }.map { ($0, 1) }
    placed.removeAll()
    func picture(_ index: Int, _ depth: Int) -> [(index: Int, depth: Int)] {
      guard placed.insert(index).inserted else { return [] }
      return [(index, depth)] + (built[nodes[index].id] ?? []).flatMap { picture($0, depth + 1) }
    }
    var pictureOrder = roots.flatMap { picture($0, 0) }
    pictureOrder += ofJob.filter { !placed.contains($0) }.map { ($0, 1) }
    return (textOrder, pictureOrder)
  }

  /// A trace written before traces said which node built which: the nodes not named by the
  /// labels are a flatMap's pipelines, `STAGE ($0 = V)`, put before the node whose body holds the
  /// stage (with a flatMap in another's body, possibly not where `draw P` puts them).
  private static func orderedByLabel(
    _ ofJob: [Int], _ nodes: [TracedNode], labels: [String]
  ) -> [(index: Int, depth: Int)] {
    var left = ofJob
    var named: [Int] = []
    for label in labels {
      guard let found = left.firstIndex(where: { nodes[$0].label == label }) else { continue }
      named.append(left.remove(at: found))
    }
    var order: [Int] = []
    for index in named {
      let owned = left.filter { stage(of: nodes[$0].label).map(nodes[index].label.contains) ?? false }
      order += owned + [index]
      left.removeAll(where: owned.contains)
    }
    order += left
    return order.map { ($0, stage(of: nodes[$0].label) == nil ? 0 : 1) }
  }

  /// The lanes as `draw P to:` draws them: a flatMap's pipelines indented under it, each lane as
  /// long as the node lived.
  func pictureLanes(demand: Bool) -> [MarblePicture.Lane] {
    pictureRows.map { row, depth in
      let events = row.events.map { time, kind in (time: time, kind: kind.nodeEventKind) }
      var lane = MarblePicture.Lane(label: row.label, events: events, depth: depth, short: depth > 0)
      // A saved trace does not say which operator a node is: what a queue held is not drawn.
      if demand {
        lane.demand = MarblePicture.DemandBands(Demand(row.all, tick: .seconds(1)), holdings: nil, drops: [])
      }
      return lane
    }
  }

  /// The stage text of a node of a flatMap's pipeline: its label without ` ($0 = V)`.
  private static func stage(of label: String) -> String? {
    guard let suffix = label.ranges(of: " ($0 = ").last else { return nil }
    return String(label[..<suffix.lowerBound])
  }
}
