/// swift-async-algorithms' validation-diagram notation, read once: `Marbles` (MarbleTesting and
/// the shell's `expect`) and `ValidationDiagram` (pipesh's `validate`) both build on this reading
/// and say its problems in their own words. `-` a step with no event; any other character, or
/// `'text'` (every character up to the next `'`, spaces too), a value; `[ab]` events in one step;
/// `|` finished; `^` failed; `;` cancelled; `,` delay-next (a step of its own outside a group);
/// spaces are ignored. The first character is step 1.
public struct DiagramReading: Sendable, Hashable {
  /// What a symbol of the diagram says.
  public enum Symbol: Sendable, Hashable {
    /// A value, `a` or `'text'`.
    case value(String)
    /// `|`
    case finish
    /// `^`
    case failure
    /// `;`
    case cancel
    /// `,`
    case delayNext
  }

  /// A place in the diagram's text, counted both ways its readers report it.
  public struct Position: Sendable, Hashable {
    /// Characters from the start.
    public let character: Int
    /// UTF-8 bytes from the start.
    public let byte: Int
  }

  /// One symbol at its step; a quoted value's position is its opening quote.
  public struct Entry: Sendable, Hashable {
    public let step: Int
    public let symbol: Symbol
    public let position: Position
  }

  /// Why a diagram cannot be read.
  public enum Problem: Error, Sendable, Hashable {
    /// A `-` inside a group.
    case stepInGroup(Position)
    /// A `[` inside a group.
    case nestedGroup(Position)
    /// A `]` with no `[` open.
    case closeWithoutOpen(Position)
    /// The text ended inside a quoted value, a group or both: where each began, and the end.
    case unterminated(value: Position?, group: Position?, end: Position)
  }

  /// Every symbol, in the order written.
  public let entries: [Entry]
  /// Where each step written as `-`, or as a symbol outside a group, begins.
  public let stepStarts: [Int: Position]
  /// How many steps the diagram spans.
  public let length: Int

  /// Reads `text`; the first problem, if any.
  public static func read(_ text: String) -> Result<DiagramReading, Problem> {
    var entries: [Entry] = []
    var stepStarts: [Int: Position] = [:]
    var step = 0
    var value: (text: String, start: Position)?
    var group: Position?
    var position = Position(character: 0, byte: 0)
    func add(_ symbol: Symbol, at start: Position) {
      if group == nil {
        step += 1
        stepStarts[step] = start
      }
      entries.append(Entry(step: step, symbol: symbol, position: start))
    }
    for character in text {
      defer { position = Position(character: position.character + 1, byte: position.byte + character.utf8.count) }
      if let open = value {
        if character == "'" {
          value = nil
          add(.value(open.text), at: open.start)
        } else {
          value?.text.append(character)
        }
        continue
      }
      switch character {
      case " ": continue
      case "-":
        guard group == nil else { return .failure(.stepInGroup(position)) }
        step += 1
        stepStarts[step] = position
      case "|": add(.finish, at: position)
      case "^": add(.failure, at: position)
      case ";": add(.cancel, at: position)
      case ",": add(.delayNext, at: position)
      case "'": value = ("", position)
      case "[":
        guard group == nil else { return .failure(.nestedGroup(position)) }
        group = position
        step += 1
      case "]":
        guard group != nil else { return .failure(.closeWithoutOpen(position)) }
        group = nil
      default: add(.value(String(character)), at: position)
      }
    }
    if value != nil || group != nil {
      return .failure(.unterminated(value: value?.start, group: group, end: position))
    }
    return .success(DiagramReading(entries: entries, stepStarts: stepStarts, length: step))
  }
}
