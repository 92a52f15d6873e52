import PipeSema
import PipeSession

/// The lanes of `draw` and `compare` laid out on one grid: each step takes the columns of its
/// widest cell in any lane (the others padded with spaces, which the notation ignores), so a
/// value such as `'10'` or a group such as `[ab]` never pushes a later step out of line; and a
/// time ruler above them.
package struct MarbleLanes {
  /// The lines, aligned; a line that does not read as a diagram is kept as it is.
  package let lines: [String]
  /// The ruler: the time of every fifth step (or tenth, when labels are long) above its column.
  package let ruler: String

  /// `marks`: the lines that are a mark per column (`draw … demand: true`), not diagrams: each
  /// mark stands at its column's start, padded with spaces as a lane's `-` is.
  package init(_ lines: [String], tick: Duration, marks: Set<Int> = []) {
    let parsed = lines.enumerated().map { index, line -> [MarbleDiagram.Step]? in
      guard !marks.contains(index), case .success(let diagram) = MarbleDiagram.parse(line) else { return nil }
      return diagram.steps
    }
    let stepCount = parsed.compactMap { $0?.count }.max() ?? 0
    var widths = [Int](repeating: 1, count: stepCount)
    for steps in parsed.compactMap({ $0 }) {
      for (index, step) in steps.enumerated() { widths[index] = max(widths[index], Format.columns(Self.cell(step))) }
    }
    // A step wider than one column keeps a space after it: a quoted value then never stands
    // right before another (`''` would read as a quote inside one value).
    widths = widths.map { $0 > 1 ? $0 + 1 : $0 }
    self.lines = zip(lines, parsed).enumerated().map { index, pair in
      let (line, steps) = pair
      if marks.contains(index), widths.contains(where: { $0 > 1 }) {
        return line.enumerated().map { column, mark in
          let width = column < widths.count ? widths[column] : 1
          return String(mark) + String(repeating: " ", count: width - 1)
        }.joined()
      }
      guard let steps, widths.contains(where: { $0 > 1 }) else { return line }
      var out = ""
      for (index, step) in steps.enumerated() {
        let cell = Self.cell(step)
        out += index == steps.count - 1 ? cell : Format.pad(cell, widths[index])
      }
      return out
    }
    ruler = Self.ruler(widths: widths, tick: tick)
  }

  private static func cell(_ step: MarbleDiagram.Step) -> String {
    DiagramRecorder.cell(step.events)
  }

  /// Step N stands for N ticks; a label starts at its step's column.
  private static func ruler(widths: [Int], tick: Duration) -> String {
    guard !widths.isEmpty else { return "" }
    let longest = label(tick * widths.count)
    let every = longest.count >= 4 ? 10 : 5
    var ruler = ""
    var column = 0
    for step in 1...widths.count {
      if step % every == 0 || step == 1, ruler.count <= column {
        ruler += String(repeating: " ", count: column - ruler.count) + label(tick * step)
        // Labels need a space between them.
        ruler += " "
      }
      column += widths[step - 1]
    }
    while ruler.last == " " { ruler.removeLast() }
    return ruler
  }

  /// The ruler above lanes in RxJS's notation: frame N (N ticks after the start) in column N, the
  /// time of frame 0 and of every fifth frame (tenth, when labels are long) above its column.
  package static func rxjsRuler(frames: Int, tick: Duration) -> String {
    guard frames > 0 else { return "" }
    let every = label(tick * (frames - 1)).count >= 4 ? 10 : 5
    var ruler = ""
    for frame in stride(from: 0, to: frames, by: every) where ruler.count <= frame {
      ruler += String(repeating: " ", count: frame - ruler.count) + (frame == 0 ? "0" : label(tick * frame)) + " "
    }
    while ruler.last == " " { ruler.removeLast() }
    return ruler
  }

  /// `5s`, `2.5s`, `250ms`, `1.14s`, `3µs`: a time as short as it can be written, exactly (from
  /// its integer parts, never through a `Double`).
  package static func label(_ time: Duration) -> String {
    let (seconds, attoseconds) = time.components
    if attoseconds == 0 { return "\(seconds)s" }
    if seconds == 0 {
      for (unit, name) in [(Int64(1_000_000_000_000_000), "ms"), (1_000_000_000_000, "µs"), (1_000_000_000, "ns")]
      where attoseconds % unit == 0 {
        return "\(attoseconds / unit)\(name)"
      }
    }
    var fraction = String(attoseconds.magnitude)
    fraction = String(repeating: "0", count: max(0, 18 - fraction.count)) + fraction
    while fraction.last == "0" { fraction.removeLast() }
    let sign = seconds < 0 || attoseconds < 0 ? "-" : ""
    return "\(sign)\(seconds.magnitude).\(fraction)s"
  }
}
