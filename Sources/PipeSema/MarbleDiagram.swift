/// A marble diagram in the notation of swift-async-algorithms' validation diagrams: `-` a step
/// with no event, one character or `'text'` a value (`'foo''bar'` two values, as AA reads them), `[ab]`
/// events in one step, `|` finished, `^` failed, `;` cancelled; spaces are ignored. The first step
/// is step 1. A diagram in RxJS's notation (`parse(_:dialect:frame:)`) reads into the same steps,
/// numbered by frame from 0 (`MarbleDiagram+RxJS.swift`).
public struct MarbleDiagram: Sendable, Hashable {
  public enum Event: Sendable, Hashable {
    case value(String)
    case finish
    case fail
    case cancel

    /// The event as a diagram writes it: a value of one plain character as itself, any other
    /// quoted, so it reads back as the same value. AA's notation cannot write a quote inside a
    /// value (`'it''s'` reads as two values, as AA reads it): views write it doubled, to be seen.
    public var notation: String {
      switch self {
      case .value(let text):
        if text.count == 1, !"-|^;[]' ".contains(text), text.unicodeScalars.allSatisfy({ $0.value >= 0x20 }) {
          return text
        }
        return "'" + text.replacing("'", with: "''") + "'"
      case .finish: return "|"
      case .fail: return "^"
      case .cancel: return ";"
      }
    }

    /// Whether it ends the diagram: `|`, `^` or `;`.
    public var isEnd: Bool { self == .finish || self == .fail || self == .cancel }
  }

  /// The events of one step.
  public struct Step: Sendable, Hashable {
    public let step: Int
    public let events: [Event]
  }

  /// A malformed diagram: where (a byte offset in the diagram text) and what.
  public struct Problem: Error, Sendable, Hashable {
    public let offset: Int
    public let length: Int
    public let message: String
    public let note: String
  }

  /// The steps as written: in swift-async-algorithms' notation every step, from step 1; in RxJS's
  /// the frames that have events, from frame 0 (the subscription point).
  public let steps: [Step]
  /// The notation it was read from: it says what a diagram that writes no end does.
  public let dialect: MarbleDialect

  public init(steps: [Step], dialect: MarbleDialect = .aa) {
    self.steps = steps
    self.dialect = dialect
  }

  /// The steps that have events, up to the first `|`, `^` or `;`. Events after the end never
  /// happen; swift-async-algorithms' diagrams write them (`"abcdef^hijk|"`), so they are read and
  /// dropped rather than refused. Where no end is written, swift-async-algorithms' diagram
  /// finishes after its last event (a finish is added there), and RxJS's never ends (`neverEnds`).
  public var events: [Step] {
    var result: [Step] = []
    for step in steps where !step.events.isEmpty {
      if let end = step.events.firstIndex(where: \.isEnd) {
        result.append(Step(step: step.step, events: Array(step.events[...end])))
        return result
      }
      result.append(step)
    }
    if dialect == .rxjs { return result }
    guard let last = result.popLast() else { return [Step(step: 0, events: [.finish])] }
    return result + [Step(step: last.step, events: last.events + [.finish])]
  }

  /// Whether the diagram writes no end and never ends by itself (RxJS's `--a--`, until cancelled).
  public var neverEnds: Bool {
    !(events.last?.events.contains(where: \.isEnd) ?? false)
  }

  public static func parse(_ text: String) -> Result<MarbleDiagram, Problem> {
    let bytes = Array(text.utf8)
    var steps: [Step] = []
    var step = 0
    var index = 0
    var ended: Int?
    func problem(_ at: Int, _ length: Int, _ message: String, _ note: String) -> Result<MarbleDiagram, Problem> {
      .failure(Problem(offset: at, length: length, message: message, note: note))
    }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: " ") {
        index += 1
        continue
      }
      step += 1
      let start = index
      switch byte {
      case UInt8(ascii: "-"):
        index += 1
        steps.append(Step(step: step, events: []))
      case UInt8(ascii: "["):
        index += 1
        var events: [Event] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "]") {
          if bytes[index] == UInt8(ascii: "[") {
            return problem(index, 1, "'[' inside a group", "groups do not nest: [ab] puts a and b in one step")
          }
          if bytes[index] == UInt8(ascii: " ") {
            index += 1
            continue
          }
          switch single(bytes, &index) {
          case .success(let event):
            events.append(event)
            if event == .finish || event == .fail || event == .cancel { ended = index - 1 }
          case .failure(let failure): return .failure(failure)
          }
        }
        guard index < bytes.count else {
          return problem(start, 1, "unterminated group '['", "close it with ']'")
        }
        index += 1
        steps.append(Step(step: step, events: events))
      case UInt8(ascii: "]"):
        return problem(index, 1, "']' without '['", "a group is written [ab]")
      default:
        switch single(bytes, &index) {
        case .success(let event):
          if event == .finish || event == .fail || event == .cancel { ended = start }
          steps.append(Step(step: step, events: [event]))
        case .failure(let failure): return .failure(failure)
        }
      }
    }
    _ = ended
    return .success(MarbleDiagram(steps: steps, dialect: .aa))
  }

  private static func single(_ bytes: [UInt8], _ index: inout Int) -> Result<Event, Problem> {
    let byte = bytes[index]
    switch byte {
    case UInt8(ascii: "|"):
      index += 1
      return .success(.finish)
    case UInt8(ascii: "^"):
      index += 1
      return .success(.fail)
    case UInt8(ascii: ";"):
      index += 1
      return .success(.cancel)
    case UInt8(ascii: "'"):
      let start = index
      index += 1
      var text: [UInt8] = []
      // The value ends at the next quote, as in AA's `Event.parse`: `'foo''bar'` is two values (what
      // `pipesh serve`'s page writes for two longer values in a row, or at one step in `[…]`).
      while index < bytes.count, bytes[index] != UInt8(ascii: "'") {
        text.append(bytes[index])
        index += 1
      }
      guard index < bytes.count else {
        return .failure(
          Problem(offset: start, length: 1, message: "unterminated quoted value", note: "close it with \"'\""))
      }
      index += 1
      return .success(.value(String(decoding: text, as: UTF8.self)))
    default:
      // One whole character, however many bytes and scalars (e and a combining accent, a flag, an
      // emoji with its modifiers): a value of one character is written as itself, one a step.
      let start = index
      index += 1
      while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
      let window = String(decoding: bytes[start..<min(bytes.count, start + 64)], as: UTF8.self)
      if let character = window.first, character.utf8.count > index - start, character != "\u{FFFD}" {
        index = start + character.utf8.count
      }
      return .success(.value(String(decoding: bytes[start..<index], as: UTF8.self)))
    }
  }
}
