import Markup
import PipeSema
import PipeSession
import PipeSyntax

/// Where a picture's marbles stand: stacks of one instant, the room each value takes, the ruler.
extension MarblePicture {
  /// The most elements of one instant in a lane.
  static func stackHeight(_ lane: Lane) -> Int {
    var counts: [Duration: Int] = [:]
    for (time, kind) in lane.events {
      if case .element = kind { counts[time, default: 0] += 1 }
    }
    return max(1, counts.values.max() ?? 1)
  }

  /// A lane's marbles as drawn: each element's text (whole, or cut to the room its neighbours
  /// leave), and the values cut, with their times, for the line under the lane.
  struct LaidOut {
    /// What each element shows inside its marble, by its place among the lane's events.
    var shown: [Int: (text: String, width: Int)] = [:]
    var cut: [(time: Duration, value: String)] = []

    /// The line(s) under the lane that write the cut values whole, wrapped to the picture.
    func valueLines(width: Int) -> [String] {
      guard !cut.isEmpty else { return [] }
      let room = max(40, (width - 2 * MarblePicture.margin - MarblePicture.labelWidth) * 10 / 68)
      var lines: [String] = []
      var line = "in full:"
      for (time, value) in cut {
        let item = " \(time.stampText) \(value)"
        if line.count + item.count > room, line.count > 8 {
          lines.append(line)
          line = "        "
        }
        line += item + " ·"
      }
      lines.append(String(line.dropLast(2)))
      return lines.map { $0.count > room ? String($0.prefix(room - 1)) + "…" : $0 }
    }
  }

  /// Lays out `lane`'s marbles on `scale`: a value takes the room its neighbours leave it (half a
  /// gap at least, more when the neighbour is narrow).
  static func laidOut(_ lane: Lane, scale: Scale) -> LaidOut {
    // What stands at each instant of the lane: the widest marble there, or an end's mark.
    var halves: [Duration: Int] = [:]
    for (time, kind) in lane.events {
      switch kind {
      case .element(let value): halves[time] = max(halves[time] ?? 0, marbleWidth(value.printed) / 2)
      case .finished, .failed, .cancelled: halves[time] = max(halves[time] ?? 0, 10)
      case .start, .asked, .sending: continue
      }
    }
    let times = halves.keys.sorted()
    var laid = LaidOut()
    for (index, (time, kind)) in lane.events.enumerated() {
      guard case .element(let value) = kind else { continue }
      let text = value.printed
      let wanted = marbleWidth(text) / 2
      var half = wanted
      let at = times.firstIndex(of: time) ?? 0
      let x = scale.x(time)
      for neighbour in [at - 1, at + 1] where times.indices.contains(neighbour) {
        let gap = abs(scale.x(times[neighbour]) - x)
        let theirs = min(halves[times[neighbour]] ?? 0, gap / 2)
        half = min(half, gap - theirs - 2)
      }
      half = max(11, half)
      if half >= wanted, textWidth(text, size: 10) + 12 <= widestMarble {
        laid.shown[index] = (text, 2 * wanted)
      } else {
        let fits = max(1, Int(Double(2 * half - 12) / 6.2) - 1)
        laid.shown[index] = (String(text.prefix(fits)) + "…", 2 * half)
        laid.cut.append((time, text))
      }
    }
    return laid
  }

  /// From times to x: whole pixels, with room between the closest distinct events of a lane for
  /// their marbles.
  struct Scale {
    let left = MarblePicture.margin + MarblePicture.labelWidth
    let pixelsPerSecond: Double
    let width: Int
    let end: Duration

    init(lanes: [Lane], end: Duration) {
      let span = max(end.inSecondsValue, 0.001)
      var closest = span
      var needed = 0.0
      for lane in lanes {
        var halves: [Duration: Int] = [:]
        for (time, kind) in lane.events {
          switch kind {
          case .element(let value):
            halves[time] = max(halves[time] ?? 0, MarblePicture.marbleWidth(value.printed) / 2)
          case .finished, .failed, .cancelled, .start: halves[time] = max(halves[time] ?? 0, 10)
          case .asked, .sending: continue
          }
        }
        let times = halves.keys.sorted()
        for (earlier, later) in zip(times, times.dropFirst()) {
          let gap = (later - earlier).inSecondsValue
          closest = min(closest, gap)
          needed = max(needed, Double((halves[earlier] ?? 0) + (halves[later] ?? 0) + 4) / gap)
        }
      }
      // 28 pixels between the closest events, room for neighbouring values, at least 640 and at
      // most 8,000 in all.
      pixelsPerSecond = min(max(640 / span, 28 / closest, needed), 8000 / span)
      width = Int((span * pixelsPerSecond).rounded())
      self.end = end
    }

    func x(_ time: Duration) -> Int {
      left + Int((time.inSecondsValue * pixelsPerSecond).rounded())
    }

    /// Ruler steps of 1, 2 or 5 times a power of ten, at least 70 pixels apart.
    var step: Duration {
      var unit = Duration.milliseconds(1)
      while true {
        for factor in [1, 2, 5] where (unit * factor).inSecondsValue * pixelsPerSecond >= 70 {
          return unit * factor
        }
        unit *= 10
      }
    }
  }

  /// The time axis along the top, with its labels and a faint line down the picture at each step.
  static func ruler(_ scale: Scale, end: Duration, top: Int, bottom: Int) -> [String] {
    let y = top + 20
    var out = [
      "<g class=\"ruler\" stroke=\"#888888\">",
      "<line x1=\"\(scale.x(.zero))\" y1=\"\(y)\" x2=\"\(scale.x(end))\" y2=\"\(y)\"/>",
    ]
    var time = Duration.zero
    while time <= end {
      let x = scale.x(time)
      out.append("<line x1=\"\(x)\" y1=\"\(y - 5)\" x2=\"\(x)\" y2=\"\(y + 5)\"/>")
      out.append("<line x1=\"\(x)\" y1=\"\(y + 5)\" x2=\"\(x)\" y2=\"\(bottom)\" stroke=\"#eeeeee\"/>")
      out.append(
        "<text x=\"\(x)\" y=\"\(y - 9)\" text-anchor=\"middle\" stroke=\"none\" fill=\"#555555\">"
          + "\(Markup.escaped(MarbleLanes.label(time), .picture))</text>")
      time += scale.step
    }
    out.append("</g>")
    return out
  }
}
