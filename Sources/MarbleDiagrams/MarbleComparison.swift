/// An expected diagram against an actual one, step by step: the first step whose events differ,
/// said in words, and both lanes drawn under one ruler, aligned column by column, with that step
/// marked.
///
/// ```swift
/// let comparison = MarbleComparison(expected: try Marbles("a-c-e-|"), actual: try Marbles("a-c---|"))
/// print(comparison)
/// // at step 5: expected 'e', got nothing
/// //           1   5
/// // expected  a-c-e-|
/// // actual    a-c---|
/// //               ^
/// ```
public struct MarbleComparison: Sendable, CustomStringConvertible {
  /// The first step at which the lanes differ.
  public struct Difference: Sendable, Hashable {
    /// The step, from 1.
    public let step: Int
    /// What the expected diagram has at that step, and what happened.
    public let expected: [Marbles.Event]
    /// What the actual diagram has at that step.
    public let actual: [Marbles.Event]

    /// `expected 'e', got nothing`.
    public var words: String {
      "expected \(Self.words(expected)), got \(Self.words(actual))"
    }

    static func words(_ events: [Marbles.Event]) -> String {
      switch events.count {
      case 0: return "nothing"
      case 1: return events[0].words
      case 2...4: return events.map(\.words).joined(separator: " and ") + " at once"
      default:
        return events.prefix(3).map(\.words).joined(separator: ", ") + " and \(events.count - 3) more at once"
      }
    }
  }

  /// How a comparison names a step: in its ruler (`5`, `5s`) and in words (`step 5`, `5s`).
  public struct StepNames: Sendable {
    let ruler: @Sendable (Int) -> String
    let words: @Sendable (Int) -> String

    /// Names a step `ruler(step)` in the ruler and `words(step)` in the message.
    public init(ruler: @escaping @Sendable (Int) -> String, words: @escaping @Sendable (Int) -> String) {
      self.ruler = ruler
      self.words = words
    }

    /// Steps as numbers: `5` in the ruler, `step 5` in words.
    public static let steps = StepNames(ruler: { String($0) }, words: { "step \($0)" })
  }

  /// The diagram wanted.
  public let expected: Marbles
  /// The diagram drawn.
  public let actual: Marbles
  /// Nil when the lanes agree at every step.
  public let difference: Difference?
  /// How steps are named; steps as numbers unless said.
  public let names: StepNames

  /// Compares `actual` with `expected` step by step.
  public init(expected: Marbles, actual: Marbles, names: StepNames = .steps) {
    self.expected = expected
    self.actual = actual
    self.names = names
    let expectedSteps = expected.steps
    let actualSteps = actual.steps
    var difference: Difference?
    for step in 0..<max(expectedSteps.count, actualSteps.count) {
      let wanted = step < expectedSteps.count ? expectedSteps[step] : []
      let got = step < actualSteps.count ? actualSteps[step] : []
      if wanted != got {
        difference = Difference(step: step + 1, expected: wanted, actual: got)
        break
      }
    }
    self.difference = difference
  }

  /// Whether the actual lane is the expected one.
  public var holds: Bool { difference == nil }

  /// `at step 5: expected 'e', got nothing`, or nil when it holds.
  public var message: String? {
    difference.map { "at \(names.words($0.step)): \($0.words)" }
  }

  /// The lanes under one ruler, a column per step (a step as wide as its widest cell in either
  /// lane), the first difference marked with `^` under its column. With `width`, the lines fit in
  /// that many columns: only the steps around the first difference are drawn, `…` standing for
  /// the steps left out on either side.
  public func drawing(
    expectedLabel: String = "expected", actualLabel: String = "actual", width: Int? = nil
  )
    -> [String]
  {
    let lanes = [expected.steps, actual.steps]
    let count = lanes.map(\.count).max() ?? 0
    var widths = [Int](repeating: 1, count: count)
    for lane in lanes {
      for (index, events) in lane.enumerated() { widths[index] = max(widths[index], Marbles.cell(events).count) }
    }
    // A step wider than one column keeps a space after it, so that two quoted values never touch.
    widths = widths.map { $0 > 1 ? $0 + 1 : $0 }
    let labelWidth = max(expectedLabel.count, actualLabel.count) + 2
    // The steps drawn: all, or a window around the first difference that fits.
    var window = 0..<count
    if let width, labelWidth + widths.reduce(0, +) > width {
      let room = max(10, width - labelWidth - 2)
      let focus = max(0, (difference?.step ?? 1) - 1)
      var low = focus
      var high = focus + 1
      var used = widths.isEmpty ? 0 : widths[focus]
      while true {
        if low > 0, used + widths[low - 1] <= room, low > focus - room / 3 || high >= count {
          low -= 1
          used += widths[low]
        } else if high < count, used + widths[high] <= room {
          used += widths[high]
          high += 1
        } else if low > 0, used + widths[low - 1] <= room {
          low -= 1
          used += widths[low]
        } else {
          break
        }
      }
      window = low..<min(high, count)
    }
    let before = window.lowerBound > 0 ? "…" : ""
    func pad(_ text: String, _ width: Int) -> String {
      text + String(repeating: " ", count: max(0, width - text.count))
    }
    func lane(_ steps: [[Marbles.Event]]) -> String {
      var line = before
      for index in window where index < steps.count {
        let cell = Marbles.cell(steps[index])
        line += index == steps.count - 1 ? cell : pad(cell, widths[index])
      }
      if window.upperBound < steps.count { line += "…" }
      return line
    }
    var ruler = ""
    var rulerLength = 0
    var column = before.count
    let longest = names.ruler(count).count
    let every = longest >= 4 ? 10 : 5
    for index in window {
      let step = index + 1
      if index == window.lowerBound || step % every == 0, rulerLength <= column {
        let label = names.ruler(step) + " "
        ruler += String(repeating: " ", count: column - rulerLength) + label
        rulerLength = column + label.count
      }
      column += widths[index]
    }
    var lines = [
      pad("", labelWidth) + ruler, pad(expectedLabel, labelWidth) + lane(lanes[0]),
      pad(actualLabel, labelWidth) + lane(lanes[1]),
    ]
    if let difference, window.contains(difference.step - 1) || window.isEmpty {
      let offset = widths[window.lowerBound..<max(window.lowerBound, difference.step - 1)].reduce(0, +)
      lines.append(pad("", labelWidth + before.count + offset) + "^")
    }
    return lines.map { line in
      var line = line
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  /// The message (or `holds`) and the drawing, a line each.
  public var description: String {
    ([message ?? "holds"] + drawing()).joined(separator: "\n")
  }
}
