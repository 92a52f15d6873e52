import PipeSyntax

/// Collects timed events and draws them as one marble line: column N holds what happened at tick N.
public struct DiagramRecorder: Sendable {
  let tick: Duration
  private(set) var events: [(column: Int, event: MarbleDiagram.Event)] = []

  public init(tick: Duration) {
    self.tick = tick
  }

  /// The column of a time: events before the first tick are drawn in column 1.
  public func column(of time: Duration) -> Int {
    let ticks = time.inSecondsValue / tick.inSecondsValue
    guard ticks < Double(Self.maximumColumns + 1) else { return Self.maximumColumns + 1 }
    return max(1, Int((ticks + 1e-9).rounded(.down)))
  }

  /// The widest diagram drawn: 10,000 ticks.
  public static let maximumColumns = 10_000

  /// Adds an event; false (and nothing added) when it falls beyond `maximumColumns`.
  @discardableResult
  public mutating func add(_ time: Duration, _ event: MarbleDiagram.Event) -> Bool {
    let column = column(of: time)
    guard column <= Self.maximumColumns else { return false }
    events.append((column, event))
    return true
  }

  public var line: String {
    guard let lastColumn = events.last?.column else { return "" }
    var columns = [[MarbleDiagram.Event]](repeating: [], count: lastColumn + 1)
    for (column, event) in events { columns[column].append(event) }
    var out = ""
    for column in 1...lastColumn { Self.append(Self.cell(columns[column]), to: &out) }
    return out
  }

  /// The events of one step as a diagram writes them: `-`, one symbol, or `[…]`.
  public static func cell(_ group: [MarbleDiagram.Event]) -> String {
    switch group.count {
    case 0: return "-"
    case 1: return symbol(group[0])
    default:
      var inside = ""
      for event in group { append(symbol(event), to: &inside) }
      return "[" + inside + "]"
    }
  }

  /// Appends a symbol; a quoted value right after another gets a space between them (`'10' '12'`,
  /// which the notation ignores), so that a reader sees two values where `''` would look like a
  /// quote inside one (AA reads both as two values).
  static func append(_ symbol: String, to line: inout String) {
    if line.hasSuffix("'"), symbol.hasPrefix("'") { line += " " }
    line += symbol
  }

  /// An event as a diagram line shows it: in marble notation, with control characters written
  /// as in diagnostics (`\u{A}`), so each line stays one line.
  static func symbol(_ event: MarbleDiagram.Event) -> String {
    // A tab too: a value's column must not move the lane's later ones.
    DiagnosticFormatter.visible(event.notation).replacing("\t", with: "\\u{9}")
  }
}
