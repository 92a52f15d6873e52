import PipeSyntax
import TraceFormat

extension AttachSession {
  /// `why FROM TO`: which elements of probe FROM's lane did not come out at probe TO, a probe after
  /// it in the program. A probe records its own lane, not the operators between two probes, so the
  /// elements are followed by what they say: each of TO's elements is FROM's first element not yet
  /// followed that says the same and came no later, in order. Where TO has an element that none of
  /// FROM's says (an operator between them makes or changes elements: a map), nothing is claimed:
  /// it says so. An element after TO's last while TO still runs is not out yet, not dropped. Equal
  /// elements cannot be told apart: one that did not come out beside an equal one that did is
  /// marked `?`.
  static func why(_ recording: TraceFile.Recording, from: String, to: String, _ shell: Shell) {
    let lanes = lanes(recording)
    var chosen: [Lane] = []
    for name in [from, to] {
      guard let lane = lanes.first(where: { $0.name == name }) else {
        let known = lanes.map(\.name)
        let guess = NameSuggester.suggestion(for: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
        return shell.engine.commandFailed(
          known.isEmpty
            ? "why: no probe has recorded anything yet; sleep 1s first, or ask again"
            : "why: no probe's lane is named '\(name)'\(guess); the program's are \(known.joined(separator: ", "))"
        )
      }
      chosen.append(lane)
    }
    let (upstream, downstream) = (chosen[0], chosen[1])
    let before = elements(upstream)
    let after = elements(downstream)
    var followed = [Bool](repeating: false, count: before.count)
    var next = 0
    var unexplained: [(time: Duration, value: String)] = []
    for element in after {
      guard
        let match = before.indices[next...].first(where: {
          !followed[$0] && before[$0].value == element.value && before[$0].time <= element.time
        })
      else {
        unexplained.append(element)
        continue
      }
      followed[match] = true
      next = match + 1
    }
    let heading = "\(upstream.name) → \(downstream.name): in \(before.count)"
    if let first = unexplained.first {
      shell.console.line(heading + ", out \(after.count)")
      shell.console.line(
        "\(downstream.name) gave \(unexplained.count) \(unexplained.count == 1 ? "element" : "elements") that no "
          + "element of \(upstream.name) says (the first: \(first.value) at +\(MarbleLanes.label(first.time))):")
      shell.console.line(
        "an operator between them makes or changes elements, so what did not come out cannot be told from these "
          + "probes")
      return
    }
    let ended =
      downstream.events.last.map { event in
        switch event.kind {
        case .finished, .failed, .cancelled: true
        default: false
        }
      } ?? false
    let lastOut = after.last?.time
    // An element that says what one that came out says could have been the one that came out.
    let cameOut = Set(before.indices.filter { followed[$0] }.map { before[$0].value })
    var lost: [[String]] = []
    var pending: [[String]] = []
    for (index, element) in before.enumerated() where !followed[index] {
      let row = [element.value, "+" + MarbleLanes.label(element.time), cameOut.contains(element.value) ? "?" : ""]
      if !ended, lastOut.map({ element.time >= $0 }) ?? true { pending.append(row) } else { lost.append(row) }
    }
    var summary = heading + " = out \(after.count)"
    if !lost.isEmpty { summary += " + did not come out \(lost.count)" }
    if !pending.isEmpty { summary += " + not out yet \(pending.count) (\(downstream.name) still runs)" }
    shell.console.line(summary)
    // One table for both lists, so their columns line up.
    var table = Format.table(lost + pending).map { "  " + $0.dropLast($0.reversed().prefix { $0 == " " }.count) }[...]
    if !lost.isEmpty {
      shell.console.line("did not come out at \(downstream.name) (dropped by what stands between):")
      for line in table.prefix(lost.count) { shell.console.line(line) }
      table = table.dropFirst(lost.count)
    }
    if !pending.isEmpty {
      shell.console.line("not out yet:")
      for line in table { shell.console.line(line) }
    }
    if (lost + pending).contains(where: { $0[2] == "?" }) {
      shell.console.line(
        "? an element that came out says the same: which of the equal ones came out cannot be told from the probes")
    }
  }

  /// A lane's elements: their times (from the trace's first event) and what they say.
  private static func elements(_ lane: Lane) -> [(time: Duration, value: String)] {
    lane.events.compactMap { event in
      if case .element(let value) = event.kind { (event.time, value) } else { nil }
    }
  }
}
