import PipeSema
import PipeSession

/// What one of `explore`'s runs did, in the order it did it: each node's elements and ends (not its
/// start, nor demand), so that two outcomes' runs can be set side by side where they part.
enum RunSequence {
  /// The run's steps, in the order the run recorded them, each node named by its lane
  /// (`recorded.nodes`; an implicit sink has none and its steps are left out).
  static func steps(of recorded: RecordedRun) -> [Parting.Step] {
    var lanes: [ObjectIdentifier: Int] = [:]
    for (index, node) in recorded.nodes.enumerated() { lanes[node.identity] = index }
    var steps: [(order: Int, step: Parting.Step)] = []
    for (identity, lane) in lanes {
      let text = recorded.nodes[lane].text
      // A label two lanes share is told apart by the lane's number, as `draw` lists them.
      let shared = recorded.nodes.lazy.filter { $0.text == text }.count > 1
      let name = shared ? "\(text) (lane \(lane + 1))" : text
      for event in recorded.observer.sequenced(for: identity) {
        let what: String
        switch event.kind {
        case .element(let value): what = "→ " + value.printed
        case .finished: what = "finished"
        case .failed: what = "failed"
        case .cancelled: what = "cancelled"
        case .start, .asked, .sending: continue
        }
        steps.append((event.order, Parting.Step(time: event.time, lane: lane, action: name + " " + what)))
      }
    }
    return steps.sorted { $0.order < $1.order }.map(\.step)
  }
}

/// Where the run of one outcome parts from an earlier outcome's: the earliest instant at which a
/// lane differs, and the first thing done at that instant that differs between the two runs.
struct Parting {
  /// A node's element or end in a run: when, its lane, and as `parts from` names it.
  struct Step: Equatable {
    let time: Duration
    let lane: Int
    let action: String
  }

  let outcome: Int
  let time: Duration
  /// What came next in the earlier outcome's run, and in this one's (nil: nothing more then).
  let earlier: String?
  let this: String?

  /// The instant at which some lane of the two runs first differs (an element, its value or its
  /// time, an end), nil when no lane does.
  static func instant(_ one: [Step], _ other: [Step]) -> Duration? {
    let lanes = Set(one.map(\.lane)).union(other.map(\.lane))
    return lanes.compactMap { lane -> Duration? in
      let mine = one.filter { $0.lane == lane }
      let theirs = other.filter { $0.lane == lane }
      guard let index = zip(mine, theirs).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
      else {
        guard mine.count != theirs.count else { return nil }
        let shorter = min(mine.count, theirs.count)
        return (mine.count > shorter ? mine[shorter] : theirs[shorter]).time
      }
      return min(mine[index].time, theirs[index].time)
    }.min()
  }

  /// Where `steps` parts from the closest of `earlier` (the runs of the outcomes before it, in
  /// their order): the one whose lanes go along with it longest. Nil for the first outcome.
  static func closest(_ steps: [Step], from earlier: [[Step]]) -> Parting? {
    var best: (outcome: Int, time: Duration)?
    for (outcome, other) in earlier.enumerated() {
      guard let time = instant(steps, other) else { continue }
      if best.map({ time > $0.time }) ?? true { best = (outcome, time) }
    }
    guard let (outcome, time) = best else { return nil }
    let mine = steps.filter { $0.time == time }
    let theirs = earlier[outcome].filter { $0.time == time }
    let index =
      zip(mine, theirs).enumerated().first { $0.element.0 != $0.element.1 }?.offset
      ?? min(
        mine.count, theirs.count)
    return Parting(
      outcome: outcome + 1, time: time, earlier: index < theirs.count ? theirs[index].action : nil,
      this: index < mine.count ? mine[index].action : nil)
  }

  /// As `explore` prints it under the outcome: what came next in each run after all they did
  /// alike at that instant.
  func line(_ label: (Duration) -> String) -> String {
    let nothing = "nothing more at \(label(time))"
    return
      "parts from outcome \(outcome) at \(label(time)): there \(earlier ?? nothing) came next, here \(this ?? nothing)"
  }
}
