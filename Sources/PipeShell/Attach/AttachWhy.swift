import PipeSema
import PipeSession
import PipeSyntax
import PipeViews
import TraceFormat

extension AttachSession {
  /// Where `why FROM TO`'s lanes come from: a program attached to now, or a saved trace (`why
  /// "F.trace" FROM TO`, whose names are its second and third arguments).
  enum WhySource {
    case attached
    /// The saved trace's path, as typed.
    case file(String)

    /// The index of FROM's argument in the command (TO's is the next).
    var fromArgument: Int {
      if case .file = self { return 1 }
      return 0
    }

    /// What to do when no probe has recorded anything.
    var whenEmpty: String {
      if case .file = self { return "save a trace after the program's probes have recorded" }
      return "sleep 1s first, or ask again"
    }

    /// The command that asks about `from` and `to` from here, as it would be typed.
    func command(from: String, to: String) -> String {
      let names = [from, to].map { name in Self.isWord(name) ? name : Self.quoted(name) }
      if case .file(let path) = self { return "why \(Self.quoted(path)) \(names[0]) \(names[1])" }
      return "why \(names[0]) \(names[1])"
    }

    /// Whether `name` reads as a probe's name without quotes: a letter or `_`, then letters, digits, `_`.
    private static func isWord(_ name: String) -> Bool {
      guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
      return name.unicodeScalars.allSatisfy {
        $0 == "_" || $0.properties.isAlphabetic || $0.properties.numericType != nil
      }
    }

    /// `text` as a pipesh string literal: in double quotes, `\` and `"` escaped (a name shown with
    /// its control characters escaped stays that text, and names the probe as shown).
    private static func quoted(_ text: String) -> String {
      "\"" + text.map { $0 == "\\" || $0 == "\"" ? "\\\($0)" : String($0) }.joined() + "\""
    }
  }

  /// `why FROM TO`: which elements of probe FROM's lane did not come out at probe TO, a probe after
  /// it in the program. A probe records its own lane, not the operators between two probes, so the
  /// elements are followed by what they say: each of TO's elements is FROM's first element not yet
  /// followed that says the same and came no later, in order. Where TO has an element that none of
  /// FROM's says (an operator between them makes or changes elements: a map), nothing is claimed:
  /// it says so. An element after TO's last while TO still runs is not out yet, not dropped; one
  /// before it may still be held (a buffer), and the heading says so. Equal elements cannot be
  /// told apart: one that did not come out beside an equal one that did is marked `?`. When a
  /// flight recorder dropped the trace's first events, TO's first elements may come from elements
  /// of FROM it no longer has: those that no kept element says are left out, and a note says so.
  static func why(_ recording: TraceFile.Recording, from: String, to: String, _ source: WhySource, _ shell: Shell) {
    let lanes = lanes(recording)
    var chosen: [Lane] = []
    for (offset, name) in [from, to].enumerated() {
      // A name is shown with its control characters escaped; typed in quotes, they are real.
      guard let lane = lanes.first(where: { $0.name == name || $0.name == name.showingEveryControlCharacter }) else {
        let known = lanes.map(\.name)
        let guess = NameSuggester.suggestion(for: name, in: known).map { " (did you mean '\($0)'?)" } ?? ""
        return shell.engine.commandFailed(
          known.isEmpty
            ? "why: no probe has recorded anything yet; \(source.whenEmpty)"
            : "why: no probe's lane is named '\(name.showingEveryControlCharacter)'\(guess); the program's are "
              + known.joined(separator: ", "),
          at: source.fromArgument + offset)
      }
      chosen.append(lane)
    }
    let (upstream, downstream) = (chosen[0], chosen[1])
    // The lanes' names as the views show them: control characters escaped.
    let (fromName, toName) = (upstream.name, downstream.name)
    guard upstream.name != downstream.name else {
      return shell.engine.commandFailed(
        "why: FROM and TO are the same lane ('\(fromName)'): name the probe before an operator, then the one "
          + "after it", at: source.fromArgument + 1)
    }
    let before = elements(upstream)
    let after = elements(downstream)
    let followed = follow(after, through: before, skippingFirst: recording.dropped > 0)
    let heading = "\(fromName) → \(toName): in \(before.count)"
    if let first = followed.unexplained.first {
      let count = followed.unexplained.count
      shell.console.line(heading + ", out \(after.count)")
      shell.console.line(
        "\(toName) gave \(count) \(count == 1 ? "element" : "elements") that no element of \(fromName) "
          + "says (the first: \(Self.shown(first.value)) at \(first.time.stampText)):")
      shell.console.line(
        "an operator between them makes or changes elements, so what did not come out cannot be told from these "
          + "probes")
      // Asked the wrong way round: every element of FROM (there are some) is one of TO's.
      if !before.isEmpty, follow(before, through: after, skippingFirst: recording.dropped > 0).unexplained.isEmpty {
        shell.console.line(
          "(the other way round, each element of \(fromName) is one of \(toName)'s: did you mean "
            + "\(source.command(from: toName, to: fromName))?)")
      }
      return
    }
    // How TO ended, if it did: cancelled or failed, what it held then went with it.
    let end = downstream.events.last.flatMap { event -> String? in
      switch event.kind {
      case .finished: "finished"
      case .failed: "failed"
      case .cancelled: "cancelled"
      default: nil
      }
    }
    let ended = end != nil
    let lastOut = after.last?.time
    // An element that says what one that came out says could have been the one that came out.
    let cameOut = Set(before.indices.filter { followed.matched[$0] }.map { before[$0].value })
    var lost: [[String]] = []
    var pending: [[String]] = []
    for (index, element) in before.enumerated() where !followed.matched[index] {
      let row = [
        Self.shown(element.value), element.time.stampText,
        cameOut.contains(element.value) ? "?" : "",
      ]
      if !ended, lastOut.map({ element.time >= $0 }) ?? true { pending.append(row) } else { lost.append(row) }
    }
    var summary = heading + " = out \(after.count - followed.skipped)"
    if !lost.isEmpty { summary += " + did not come out \(lost.count)" }
    if !pending.isEmpty { summary += " + not out yet \(pending.count) (\(toName) still runs)" }
    shell.console.line(summary)
    // One table for both lists, so their columns line up.
    var table = Format.table(lost + pending).map { "  " + $0.dropLast($0.reversed().prefix { $0 == " " }.count) }[...]
    if !lost.isEmpty {
      let why =
        switch end {
        case "finished"?: "dropped by what stands between"
        case let end?: "dropped by what stands between, or held there when \(toName) \(end)"
        case nil: "dropped by what stands between, or held there: \(toName) still runs"
        }
      shell.console.line("did not come out at \(toName) (\(why)):")
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
    if followed.skipped > 0 {
      shell.console.line(
        followed.skipped == 1
          ? "(\(toName)'s first element came from one of \(fromName)'s the recorder dropped: it is left out)"
          : "(\(toName)'s first \(followed.skipped) elements came from ones of \(fromName)'s the recorder dropped: "
            + "they are left out)")
    }
  }

  /// A value as `why` lists it: its control characters escaped, and quoted when a space at either
  /// end (or nothing at all) would not be seen.
  private static func shown(_ value: String) -> String {
    let visible = value.showingEveryControlCharacter
    guard visible.isEmpty || visible.first?.isWhitespace == true || visible.last?.isWhitespace == true else {
      return visible
    }
    return "'" + visible + "'"
  }

  /// A lane's elements: their times (from the trace's first event) and what they say.
  private static func elements(_ lane: Lane) -> [(time: Duration, value: String)] {
    lane.events.compactMap { event in
      if case .element(let value) = event.kind { (event.time, value) } else { nil }
    }
  }

  /// Which of `before` each of `after` is, in order: FROM's first element after the last one
  /// followed that says the same and came no later (the later ones of that value come later still,
  /// so the first is the only one to try). Those of `after` that none is are unexplained, except,
  /// with `skippingFirst`, those before the first followed one (they came from dropped events),
  /// counted as `skipped` (when one is followed at all).
  private static func follow(
    _ after: [(time: Duration, value: String)], through before: [(time: Duration, value: String)],
    skippingFirst: Bool
  ) -> (matched: [Bool], unexplained: [(time: Duration, value: String)], skipped: Int) {
    var positions: [String: [Int]] = [:]
    for (index, element) in before.enumerated() { positions[element.value, default: []].append(index) }
    var matched = [Bool](repeating: false, count: before.count)
    var next = 0
    var unexplained: [(time: Duration, value: String)] = []
    var skipped: [(time: Duration, value: String)] = []
    for element in after {
      let candidates = positions[element.value] ?? []
      // The first of `candidates` at `next` or after it.
      var (low, high) = (0, candidates.count)
      while low < high {
        let middle = (low + high) / 2
        if candidates[middle] < next { low = middle + 1 } else { high = middle }
      }
      guard low < candidates.count, before[candidates[low]].time <= element.time else {
        if skippingFirst, next == 0 { skipped.append(element) } else { unexplained.append(element) }
        continue
      }
      matched[candidates[low]] = true
      next = candidates[low] + 1
    }
    // With none followed, the first ones are not told apart from the rest: none is explained.
    if next == 0 { return (matched, skipped + unexplained, 0) }
    return (matched, unexplained, skipped.count)
  }
}
