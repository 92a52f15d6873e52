import PipeSyntax

/// The marble notations pipesh reads and writes.
public enum MarbleDialect: String, Sendable, Hashable, CaseIterable {
  /// swift-async-algorithms' validation diagrams, pipesh's own: the first step is one tick after
  /// the start, `[ab]` a group, `^` failed, `;` cancelled, a diagram with no end finishes after its
  /// last event.
  case aa
  /// RxJS's TestScheduler diagrams in run mode: the first frame is the start (frame 0), `(ab)` a
  /// group, `#` error, `!` unsubscribed, time progression (`a 9ms b`), `^` the subscription
  /// point; a diagram with no end never ends.
  case rxjs

  /// The words `dialect:` takes.
  public static var words: [String] { allCases.map(\.rawValue) }
}

extension MarbleDiagram {
  /// RxJS's frame in run mode: 1ms.
  public static let rxjsFrame = Duration.milliseconds(1)

  /// Reads a diagram in either notation. `frame` is the length of one frame (RxJS) or step (AA):
  /// RxJS's time progressions (`a 9ms b`) are counted in it, and must be a whole number of frames;
  /// nil when it is not known yet (worked out per element), which refuses a time progression.
  ///
  /// In RxJS's notation (`TestScheduler.parseMarbles` in run mode): spaces are ignored; `-`, a
  /// value character, `(`, `)`, `|`, `#`, `^` and `!` each take one frame; the events of a group
  /// `(ab)` happen at the frame of its `(`, and time goes on by the group's characters,
  /// parentheses included (`(ab)` takes four frames); `|` completes, `#` errors, `!` unsubscribes
  /// (the source is cancelled there, `;` in pipesh's notation); a number with `ms`, `s` or `m` and
  /// a space after it, first in the diagram or after a space, is a time progression (`a 9ms b`:
  /// `b` ten frames after `a`); elsewhere its characters are values, as in RxJS. Frame 0 is the
  /// first character, or the subscription point `^` where there is one (RxJS's hot observables):
  /// a value before it was sent before the subscription and is never seen; an end before it ends
  /// the diagram at frame 0 (a subject tells a late subscriber it has ended). The steps are the
  /// frames that have events, numbered by frame.
  public static func parse(
    _ text: String, dialect: MarbleDialect, frame: Duration? = rxjsFrame
  ) -> Result<MarbleDiagram, Problem> {
    switch dialect {
    case .aa: parse(text)
    case .rxjs: RxJSReader(text, frame: frame).read()
    }
  }
}

/// Reads one diagram in RxJS's notation.
private struct RxJSReader {
  let bytes: [UInt8]
  let frame: Duration?

  init(_ text: String, frame: Duration?) {
    bytes = Array(text.utf8)
    self.frame = frame
  }

  /// The most frames a diagram may span (a time progression past it is refused): 10⁹.
  static let maximumFrames = 1_000_000_000

  func problem(
    _ at: Int, _ length: Int, _ message: String, _ note: String
  ) -> Result<MarbleDiagram, MarbleDiagram.Problem> {
    .failure(MarbleDiagram.Problem(offset: at, length: length, message: message, note: note))
  }

  func read() -> Result<MarbleDiagram, MarbleDiagram.Problem> {
    var timed: [(frame: Int, event: MarbleDiagram.Event)] = []
    var frame = 0
    // The frame and offset of the open group's `(`.
    var group: (frame: Int, offset: Int)?
    var subscription: Int?
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      let start = index
      index += 1
      var event: MarbleDiagram.Event?
      switch byte {
      case UInt8(ascii: " "):
        continue
      case UInt8(ascii: "-"):
        break
      case UInt8(ascii: "("):
        if group != nil {
          return problem(start, 1, "'(' inside a group", "groups do not nest: (ab) puts a and b in one frame")
        }
        group = (frame, start)
      case UInt8(ascii: ")"):
        guard group != nil else { return problem(start, 1, "')' without '('", "a group is written (ab)") }
        group = nil
      case UInt8(ascii: "|"): event = .finish
      case UInt8(ascii: "#"): event = .fail
      case UInt8(ascii: "!"): event = .cancel
      case UInt8(ascii: "^"):
        if group != nil {
          return problem(start, 1, "'^' inside a group", "the subscription point stands on a frame of its own")
        }
        if subscription != nil {
          return problem(start, 1, "a second subscription point '^'", "a diagram has one subscription point")
        }
        subscription = frame
      default:
        if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), start == 0 || bytes[start - 1] == UInt8(ascii: " "),
          let progression = progression(at: start)
        {
          switch frames(of: progression, at: start) {
          case .success(let count):
            guard frame + count <= Self.maximumFrames else {
              return problem(
                start, progression.length, "time progression past 10⁹ frames", "a diagram spans at most 10⁹ frames")
            }
            frame += count
            index = start + progression.length
            continue
          case .failure(let failure): return .failure(failure)
          }
        }
        // One whole character, however many bytes.
        while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
        event = .value(String(decoding: bytes[start..<index], as: UTF8.self))
      }
      if let event { timed.append((group?.frame ?? frame, event)) }
      frame += 1
    }
    if let group { return problem(group.offset, 1, "unterminated group '('", "close it with ')'") }
    return .success(MarbleDiagram(steps: Self.steps(timed, from: subscription ?? 0), dialect: .rxjs))
  }

  /// The events by frame from the subscription point: values before it are dropped, an end before
  /// it ends the diagram at frame 0.
  static func steps(_ timed: [(frame: Int, event: MarbleDiagram.Event)], from origin: Int) -> [MarbleDiagram.Step] {
    var steps: [MarbleDiagram.Step] = []
    for (written, event) in timed {
      let frame = written - origin
      if frame < 0 {
        if event.isEnd { return [MarbleDiagram.Step(step: 0, events: [event])] }
        continue
      }
      if let last = steps.last, last.step == frame {
        steps[steps.count - 1] = MarbleDiagram.Step(step: frame, events: last.events + [event])
      } else {
        steps.append(MarbleDiagram.Step(step: frame, events: [event]))
      }
    }
    return steps
  }

  /// A time progression written at `start`, as RxJS matches it: `/^([0-9]+(?:\.[0-9]+)?)(ms|s|m) /`.
  struct Progression {
    var whole: [UInt8]
    var fraction: [UInt8]
    /// Attoseconds in one of its unit.
    var unit: Int128
    /// Its characters, the space after it included.
    var length: Int
  }

  func progression(at start: Int) -> Progression? {
    var index = start
    func digits() -> [UInt8] {
      let from = index
      while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
      return Array(bytes[from..<index])
    }
    let whole = digits()
    var fraction: [UInt8] = []
    if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "."), bytes[index + 1] >= UInt8(ascii: "0"),
      bytes[index + 1] <= UInt8(ascii: "9")
    {
      index += 1
      fraction = digits()
    }
    let millisecond: Int128 = 1_000_000_000_000_000
    let units: [(String, Int128)] = [("ms ", millisecond), ("s ", millisecond * 1000), ("m ", millisecond * 60_000)]
    for (suffix, unit) in units where bytes[index...].starts(with: suffix.utf8) {
      return Progression(whole: whole, fraction: fraction, unit: unit, length: index + suffix.utf8.count - start)
    }
    return nil
  }

  /// How many frames a progression spans: a whole number, or a problem at its column.
  func frames(of progression: Progression, at start: Int) -> Result<Int, MarbleDiagram.Problem> {
    let written = progression.length - 1
    func failure(_ message: String, _ note: String) -> Result<Int, MarbleDiagram.Problem> {
      .failure(MarbleDiagram.Problem(offset: start, length: written, message: message, note: note))
    }
    guard let frame else {
      return failure(
        "a time progression needs the frame's length", "tick: is worked out per element here: give it as a duration")
    }
    let (seconds, attoseconds) = frame.components
    let frameLength = Int128(seconds) * 1_000_000_000_000_000_000 + Int128(attoseconds)
    let text = String(decoding: bytes[start..<(start + written)], as: UTF8.self)
    // 18 digits of a whole number of minutes fit in Int128's attoseconds; more is past 10⁹ frames.
    guard progression.whole.count <= 18, progression.fraction.count <= 18, frameLength > 0 else {
      return failure("time progression past 10⁹ frames", "a diagram spans at most 10⁹ frames")
    }
    func number(_ digits: [UInt8]) -> Int128 {
      digits.reduce(0) { $0 * 10 + Int128($1 - UInt8(ascii: "0")) }
    }
    var scale: Int128 = 1
    for _ in progression.fraction { scale *= 10 }
    let total = number(progression.whole) * progression.unit * scale + number(progression.fraction) * progression.unit
    // `total / scale` attoseconds, a whole number of frames of `frameLength` attoseconds.
    guard total % (frameLength * scale) == 0 else {
      return failure(
        "time progression '\(text)' is not a whole number of frames of \(Self.label(frame))",
        "a frame is tick: (1ms unless given); write a multiple of it")
    }
    let count = total / (frameLength * scale)
    guard count <= Int128(Self.maximumFrames) else {
      return failure("time progression past 10⁹ frames", "a diagram spans at most 10⁹ frames")
    }
    return .success(Int(count))
  }

  /// A frame's length as a note writes it: `1ms`, `0.5s`.
  static func label(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return "\(seconds)s" }
    if seconds == 0, attoseconds % 1_000_000_000_000_000 == 0 { return "\(attoseconds / 1_000_000_000_000_000)ms" }
    return "\(Double(seconds) + Double(attoseconds) / 1e18)s"
  }
}

/// Lanes of timed events written in RxJS's notation (run mode), one character a frame so that
/// frame N of every lane stands in column N: `-` a frame with no event, a value of one printable
/// ASCII character other than `-()|#^!` as itself, any other value as a letter the drawing does
/// not use otherwise (the same letter for the same value in every lane, listed in `legend`),
/// `(ab)` the events of one frame (its characters take the frames after it, as in RxJS), `|`
/// completed, `#` failed, `!` cancelled. No spaces: a digit never reads as a time progression.
public struct RxJSLanes: Sendable {
  /// An event at a frame from the lane's start (frame 0).
  public typealias TimedEvent = (frame: Int, event: MarbleDiagram.Event)

  /// The lanes, in the order given.
  public let lines: [String]
  /// The values written as letters, in the order they first appear.
  public let legend: [(letter: Character, value: String)]

  /// Why lanes cannot be written.
  public enum Failure: Error, Sendable, Hashable {
    /// The group at `frame` of `lane` whose characters run into the lane's next event: RxJS's
    /// notation cannot write the lane with frames this long.
    case collision(lane: Int, frame: Int)
    /// More distinct values that need a letter than there are letters (`limit`).
    case tooManyValues(limit: Int)
  }

  /// The characters RxJS reads as something other than a value.
  static let reserved: Set<Character> = [" ", "-", "(", ")", "|", "#", "^", "!"]

  /// Letters for values that are not one plain character: a–z, A–Z, then Latin, Greek and
  /// Cyrillic letters, all one column wide.
  static let letters: [Character] = {
    var scalars: [Unicode.Scalar] = []
    for range in [0x61...0x7A, 0x41...0x5A, 0xC0...0x24F, 0x391...0x3C9, 0x410...0x44F] {
      for value in range {
        if let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic,
          scalar.properties.isLowercase
            || scalar.properties.isUppercase
        {
          scalars.append(scalar)
        }
      }
    }
    return scalars.map(Character.init)
  }()

  /// Whether a value is written as itself.
  static func isPlain(_ value: String) -> Bool {
    guard value.count == 1, let character = value.first, !reserved.contains(character) else { return false }
    return value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
  }

  /// Writes the lanes; each lane's events in order of frame (negative frames are read as 0).
  public static func write(_ lanes: [[TimedEvent]]) -> Result<RxJSLanes, Failure> {
    var used = Set<Character>()
    for lane in lanes {
      for (_, event) in lane {
        if case .value(let value) = event, isPlain(value), let character = value.first { used.insert(character) }
      }
    }
    var free = letters.filter { !used.contains($0) }.makeIterator()
    var letterOf: [String: Character] = [:]
    var legend: [(letter: Character, value: String)] = []
    var lines: [String] = []
    for (number, lane) in lanes.enumerated() {
      var byFrame: [(frame: Int, events: [MarbleDiagram.Event])] = []
      for (frame, event) in lane {
        let frame = max(0, frame)
        if let last = byFrame.last, last.frame == frame {
          byFrame[byFrame.count - 1].events.append(event)
        } else {
          byFrame.append((frame, [event]))
        }
      }
      var line = ""
      var next = 0
      var group = 0
      for (frame, events) in byFrame {
        guard frame >= next else { return .failure(.collision(lane: number, frame: group)) }
        line += String(repeating: "-", count: frame - next)
        var symbols = ""
        for event in events {
          switch event {
          case .value(let value) where isPlain(value): symbols += value
          case .value(let value):
            if let letter = letterOf[value] {
              symbols.append(letter)
            } else if let letter = free.next() {
              letterOf[value] = letter
              legend.append((letter, value))
              symbols.append(letter)
            } else {
              return .failure(.tooManyValues(limit: letters.count))
            }
          case .finish: symbols += "|"
          case .fail: symbols += "#"
          case .cancel: symbols += "!"
          }
        }
        line += events.count == 1 ? symbols : "(" + symbols + ")"
        next = frame + (events.count == 1 ? 1 : events.count + 2)
        group = frame
      }
      lines.append(line)
    }
    return .success(RxJSLanes(lines: lines, legend: legend))
  }

  /// The legend as one line, `a = 10, b = 12`; nil when every value is written as itself. A value
  /// with a comma, a quote or a space at either end, or none at all, is quoted (`c = 'x, y'`).
  public var legendLine: String? {
    guard !legend.isEmpty else { return nil }
    return legend.map { letter, value in
      let quoted =
        value.isEmpty || value.contains(",") || value.contains("'") || value.first == " " || value.last == " "
      let shown = DiagnosticFormatter.visible(value)
      return "\(letter) = " + (quoted ? "'" + shown.replacing("'", with: "''") + "'" : shown)
    }.joined(separator: ", ")
  }
}
