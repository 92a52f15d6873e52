/// A marble diagram in the notation of swift-async-algorithms' validation diagrams, read as its
/// `AsyncSequenceValidationDiagram` reads them: `-` a step with no event; any other character, or
/// `'text'`, a value (`'foo''bar'` is two values); `[ab]` events in one step; `|` finished; `^`
/// failed; `;` cancelled; `,` the consumer asks for its next element one step later (delay-next);
/// spaces are ignored. The first character is step 1.
///
/// ```swift
/// let expected = try Marbles("a--b-[c|]")
/// expected.events  // [(1, .value("a")), (4, .value("b")), (6, .value("c")), (6, .finished)]
/// ```
public struct Marbles: Sendable, Hashable, CustomStringConvertible {
  /// One event of a diagram.
  public enum Event: Sendable, Hashable, CustomStringConvertible {
    /// An element, as text.
    case value(String)
    /// The sequence ended (`|`).
    case finished
    /// The sequence threw (`^`).
    case failed
    /// The sequence was cancelled (`;`).
    case cancelled

    /// The event as a diagram writes it: a one-character value as itself (unless it is one of
    /// the notation's symbols), any other value in quotes.
    public var description: String {
      switch self {
      case .value(let text):
        if text.count == 1, !Self.symbols.contains(text) { return text }
        return "'" + text + "'"
      case .finished: return "|"
      case .failed: return "^"
      case .cancelled: return ";"
      }
    }

    /// The event in words, for a failure's message: `'e'`, `finished (|)`.
    public var words: String {
      switch self {
      case .value(let text): return "'" + text + "'"
      case .finished: return "finished (|)"
      case .failed: return "failed (^)"
      case .cancelled: return "cancelled (;)"
      }
    }

    /// Whether the event ends the sequence.
    public var isEnd: Bool {
      if case .value = self { return false }
      return true
    }

    static let symbols: Set<String> = ["-", "|", "^", ";", ",", "[", "]", "'", " "]
  }

  /// Every event, at its step, in the order written.
  public let events: [(step: Int, event: Event)]
  /// The steps written with `,`: after the event of such a step, the consumer asks for the next
  /// element only at the following step.
  public let delays: [Int]
  /// How many steps the diagram spans (its last step).
  public let length: Int

  /// Reads a diagram; a malformed one (a nested or unbalanced group, an unclosed quote, a `-`
  /// inside a group) throws where and what.
  public init(_ text: String) throws(MarbleSyntaxError) {
    let reading: DiagramReading
    switch DiagramReading.read(text) {
    case .success(let read): reading = read
    case .failure(let problem): throw MarbleSyntaxError(problem)
    }
    var events: [(step: Int, event: Event)] = []
    var delays: [Int] = []
    for entry in reading.entries {
      switch entry.symbol {
      case .value(let value): events.append((entry.step, .value(value)))
      case .finish: events.append((entry.step, .finished))
      case .failure: events.append((entry.step, .failed))
      case .cancel: events.append((entry.step, .cancelled))
      case .delayNext: delays.append(entry.step)
      }
    }
    self.events = events
    self.delays = delays
    self.length = reading.length
  }

  /// A diagram of events at steps (1 or later), as a recorder makes one, `length` steps long (at
  /// least to its last event).
  public init(events: [(step: Int, event: Event)], length: Int = 0) {
    self.events = events.sorted { $0.step < $1.step }
    self.delays = []
    self.length = max(length, self.events.last?.step ?? 0)
  }

  /// The events of each step from 1 to `length`, empty where nothing happened.
  public var steps: [[Event]] {
    var steps = [[Event]](repeating: [], count: length)
    for (step, event) in events where step >= 1 { steps[step - 1].append(event) }
    return steps
  }

  /// The events up to the first end (`|`, `^` or `;`): what a sequence can do; swift-async-algorithms'
  /// diagrams write events after an end (`"abcdef^hijk|"`), which never happen.
  public var reachable: Marbles {
    guard let end = events.firstIndex(where: { $0.event.isEnd }) else { return self }
    return Marbles(events: Array(events[...end]))
  }

  /// The diagram written in the notation: a cell per step, `-` where nothing happened.
  public var description: String {
    steps.map(Self.cell).joined()
  }

  /// One step as a diagram writes it: `-`, an event, or `[…]`.
  public static func cell(_ events: [Event]) -> String {
    switch events.count {
    case 0: return "-"
    case 1: return events[0].description
    default: return "[" + events.map(\.description).joined() + "]"
    }
  }

  /// Whether both diagrams have the same events at each step, span as many steps, and have
  /// the same delays.
  public static func == (left: Marbles, right: Marbles) -> Bool {
    left.steps == right.steps && left.delays == right.delays
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(steps)
    hasher.combine(delays)
  }
}

/// A malformed marble diagram: where (a character offset in the diagram) and what.
public struct MarbleSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The offset of the character at fault, in characters from the diagram's start.
  public let offset: Int
  /// What is wrong.
  public let message: String

  /// `marble diagram, character 3: …`.
  public var description: String { "marble diagram, character \(offset + 1): \(message)" }

  init(offset: Int, message: String) {
    self.offset = offset
    self.message = message
  }

  /// A reading's problem in the words `Marbles` has always used (an unclosed quote is told before
  /// an unclosed group).
  init(_ problem: DiagramReading.Problem) {
    switch problem {
    case .stepInGroup(let at): self.init(offset: at.character, message: "'-' inside a group: a group is one step")
    case .nestedGroup(let at): self.init(offset: at.character, message: "'[' inside a group: groups do not nest")
    case .closeWithoutOpen(let at): self.init(offset: at.character, message: "']' without '['")
    case .unterminated(.some(let value), _, _):
      self.init(offset: value.character, message: "unterminated quoted value: close it with '")
    case .unterminated(nil, let group, let end):
      self.init(offset: (group ?? end).character, message: "unterminated group: close it with ']'")
    }
  }
}
