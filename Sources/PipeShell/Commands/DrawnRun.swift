import Locking
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews
import VirtualTime

extension Shell {
  /// How far `draw` and `compare` run a pipeline: `until:`, else 60 ticks; at most the widest
  /// diagram (10,000 ticks).
  struct Horizon {
    static let defaultTicks = 60
    let tick: Duration
    let end: Duration
    let isDefault: Bool

    init(tick: Duration, until: Duration?) {
      self.tick = tick
      let widest = tick * DiagramRecorder.maximumColumns
      end = min(until ?? tick * Self.defaultTicks, widest)
      isDefault = until == nil
    }
  }

  /// What `draw` (and `compare`, for the AA side) shows of one recorded run.
  struct DrawnRun {
    /// One row per node, source first, a combinator's inputs before it; an implicit sink is left out.
    let rows: [(text: String, line: String)]
    /// The length of a column.
    let tick: Duration
    /// What the run recorded, for a picture: read only when one is drawn.
    let recorded: RecordedRun

    /// Why the run was stopped before the pipeline ended, if it was.
    var stop: RecordedRun.Stop? { recorded.stop }

    /// Every node's events at their exact times, in `rows`' order (`compare` pairs them by it).
    var lanes: [MarblePicture.Lane] {
      recorded.nodes.map { MarblePicture.Lane(label: $0.text, events: recorded.events(for: $0)) }
    }

    /// The same lanes in `draw`'s picture's order: a combinator's inputs before it, as in text,
    /// and the pipelines a flatMap built under it, indented, each lane as long as it lived.
    var pictureLanes: [MarblePicture.Lane] {
      func lanes(_ nodes: [NodeSnapshot], depth: Int, short: Bool) -> [MarblePicture.Lane] {
        nodes.filter { !(recorded.implicitSink && $0.isSink) }.flatMap { node in
          node.inputs.flatMap { lanes($0, depth: depth, short: short) }
            + [
              MarblePicture.Lane(
                label: node.text, events: recorded.events(for: node), depth: depth, short: short, node: node)
            ]
            + node.children.flatMap { lanes($0, depth: depth + 1, short: true) }
        }
      }
      return lanes(recorded.roots, depth: 0, short: false)
    }

    /// The rows with each lane's demand lines under it, which rows those are, and the key to their
    /// marks.
    var rowsWithDemand: (rows: [(text: String, line: String)], marks: Set<Int>, key: DemandKey) {
      let accounts = recorded.accounts
      var out: [(text: String, line: String)] = []
      var marks: Set<Int> = []
      var key = DemandKey()
      for (node, row) in zip(recorded.nodes, rows) {
        out.append(row)
        let account = accounts[node.identity]
        let demand = Demand(recorded.observer.demand(for: node), tick: tick)
        let holdings = account?.holdings ?? recorded.shareHoldings(of: node)
        for line in Shell.demandRows(demand, holdings: holdings, drops: account?.dropTimes ?? [], key: &key) {
          marks.insert(out.count)
          out.append(line)
        }
      }
      return (out, marks, key)
    }

    /// `pictureLanes` with each lane's requests, sends, holdings and drops.
    var pictureLanesWithDemand: [MarblePicture.Lane] {
      let accounts = recorded.accounts
      return pictureLanes.map { lane in
        guard let node = lane.node else { return lane }
        var lane = lane
        let account = accounts[node.identity]
        lane.demand = MarblePicture.DemandBands(
          Demand(recorded.observer.demand(for: node), tick: tick),
          holdings: account?.holdings ?? recorded.shareHoldings(of: node),
          drops: account?.lost.filter {
            if case .lost(.bufferFull(_), _) = $0.fate { true } else { false }
          }.map { ($0.at, $0.value) } ?? [])
        return lane
      }
    }

    /// How far the run went: the horizon when it was stopped there, else its last event.
    var end: Duration {
      guard stop != .horizon else { return recorded.horizon }
      let last = recorded.nodes.flatMap { recorded.events(for: $0).map(\.time) }.max() ?? .zero
      return max(last, tick)
    }
  }

  /// Runs the pipeline on a virtual clock of its own (the engine's recorded run) and draws every
  /// node's events; with `refining`, in columns finer than the tick where events less than a tick
  /// apart would share one.
  func drawnRun(
    _ pipeline: CheckedPipeline, horizon: Horizon, refining: Bool, printing: Bool = false,
    order: ChoiceOrder? = nil, printedInto lines: Locked<[String]>? = nil
  ) async -> DrawnRun {
    let recorded = await engine.recordedRun(
      pipeline, horizon: horizon.end, printing: printing, order: order, printedInto: lines)
    let tick = refining ? recorded.observer.finestTick(horizon.tick) : horizon.tick
    return DrawnRun(
      rows: recorded.nodes.map { ($0.text, recorded.observer.line(for: $0, tick: tick)) }, tick: tick,
      recorded: recorded)
  }
}

extension RecordedRun.Stop {
  /// What `draw` or `compare` says of a pipeline it cancelled before it had ended.
  func message(_ command: String, _ horizon: Shell.Horizon) -> String {
    switch self {
    case .events:
      return "\(command): stopped the pipeline after \(DrawObserver.maximumEvents) events"
    case .horizon where horizon.isDefault:
      return
        "\(command): the pipeline had not ended after \(Shell.Horizon.defaultTicks) ticks (\(MarbleLanes.label(horizon.end))): cancelled there; until: D draws further"
    case .horizon:
      return "\(command): the pipeline had not ended by \(MarbleLanes.label(horizon.end)): cancelled there"
    }
  }
}
