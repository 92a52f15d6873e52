import MarbleDiagrams

/// A diagram read as swift-async-algorithms 1.1.4 reads it (`AsyncSequenceValidationDiagram.Event
/// .parse` with the ASCII theme), which differs from pipesh's `marble` in three places: `'foo''bar'`
/// is two values (pipesh reads `''` inside quotes as a quote); `,` (delay next) takes a step and
/// moves the consumer's next request one step later; inside quotes every character, a space too,
/// is part of the value.
public struct ValidationDiagram: Sendable, Hashable {
  public enum Event: Sendable, Hashable {
    case value(String)
    /// `^`
    case failure
    /// `|`
    case finish
    /// `;`: the consumer is cancelled at this step.
    case cancel
    /// `,`: the consumer's next request waits one step more.
    case delayNext
  }

  /// One event at its step (the first character is step 1), with where it is written: a byte
  /// offset in the diagram's text.
  public struct Entry: Sendable, Hashable, Error {
    public let step: Int
    public let event: Event
    public let offset: Int
  }

  public let entries: [Entry]
  /// Where each step begins in the text (a byte offset), `-` steps too: where a failure points.
  public let stepOffsets: [Int: Int]

  /// The last step any event is at, or nil for a diagram without events (AA's `end`).
  public var lastStep: Int? { entries.map(\.step).max() }

  /// AA's `ParseFailure`s, by byte offset, with AA's own words (an unclosed group is told before
  /// an unclosed quote, at the diagram's end).
  public static func parse(_ text: String) -> Result<ValidationDiagram, MarbleDiagram.Problem> {
    func problem(_ at: DiagramReading.Position, _ message: String, _ note: String) -> MarbleDiagram.Problem {
      MarbleDiagram.Problem(offset: at.byte, length: 1, message: message, note: note)
    }
    switch DiagramReading.read(text) {
    case .success(let reading):
      let entries = reading.entries.map { entry in
        let event: Event =
          switch entry.symbol {
          case .value(let value): .value(value)
          case .failure: .failure
          case .finish: .finish
          case .cancel: .cancel
          case .delayNext: .delayNext
          }
        return Entry(step: entry.step, event: event, offset: entry.position.byte)
      }
      return .success(ValidationDiagram(entries: entries, stepOffsets: reading.stepStarts.mapValues(\.byte)))
    case .failure(.stepInGroup(let at)):
      return .failure(
        problem(at, "validation diagram step symbol in group", "a group holds events of one step: [ab]"))
    case .failure(.nestedGroup(let at)):
      return .failure(
        problem(at, "validation diagram nested grouping", "groups do not nest: [ab] puts a and b in one step"))
    case .failure(.closeWithoutOpen(let at)):
      return .failure(problem(at, "validation diagram unbalanced grouping", "a group is written [ab]"))
    case .failure(.unterminated(_, .some, let end)):
      return .failure(problem(end, "validation diagram unbalanced grouping", "close the group with ']'"))
    case .failure(.unterminated(let value, nil, let end)):
      // AA drops an unclosed value without a word; here it is said.
      return .failure(problem(value ?? end, "unterminated quoted value", "close it with \"'\""))
    }
  }

  /// The times, in steps from the start, at which AA's test consumer asks for each next element
  /// (`activeTicks`): at 0, then at the step of each expected event, a `,` moving the latest
  /// request one step past itself; then once more, past the end.
  public var requests: [Int] {
    entries.reduce(into: [0]) { requests, entry in
      if entry.event == .delayNext {
        requests.removeLast()
        requests.append(entry.step + 1)
      } else {
        requests.append(entry.step)
      }
    }
  }

  /// The steps at which the consumer is cancelled (`;`).
  public var cancelSteps: [Int] {
    entries.filter { $0.event == .cancel }.map(\.step)
  }

  /// The diagram in pipesh's `marble` notation, for an input: the same events at the same steps.
  /// Nil, with the offending entry, when it has `,` or `;`, which AA's inputs cannot run (its
  /// `Input` traps on an event with no result).
  public var marbleText: Result<String, Entry> {
    if let entry = entries.first(where: { $0.event == .delayNext || $0.event == .cancel }) {
      return .failure(entry)
    }
    var text = ""
    var step = 1
    for group in Dictionary(grouping: entries, by: \.step).sorted(by: { $0.key < $1.key }) {
      text += String(repeating: "-", count: max(0, group.key - step))
      let events = group.value.map { entry -> MarbleDiagram.Event in
        switch entry.event {
        case .value(let value): .value(value)
        case .failure: .fail
        case .finish: .finish
        case .cancel, .delayNext: .cancel
        }
      }
      // A space between quoted values: `'foo''bar'` would read as one value with a quote in it.
      text += events.count == 1 ? events[0].notation + " " : "[" + events.map(\.notation).joined(separator: " ") + "]"
      step = group.key + 1
    }
    return .success(text)
  }
}
