import PipeRuntime
import PipeSema
import TraceFormat

/// What `draw … demand: true` draws under a node's lane, from the node's recorded events: when its
/// consumer's request (`next()`) was outstanding, when an `into` waited for a consumer of its
/// channel, and what a queueing node (`buffer`, `delay`) held.
public struct Demand: Sendable {
  /// A request outstanding (or a send waiting) from `from` until it was answered at `to`; nil: not
  /// answered when the recording stopped.
  public struct Span: Sendable, Equatable {
    public let from: Duration
    public let to: Duration?
    /// The channel an `into` was sending to; nil for a consumer's request.
    public let channel: String?
  }

  /// The column marks, as `help marbles` explains them.
  public enum Mark {
    /// A request outstanding at the column's end: asked, not yet answered.
    public static let asked: Character = "-"
    /// A request answered in the column (the lane has its element or end there), none outstanding
    /// at the column's end.
    public static let answered: Character = "."
    /// No request outstanding at any instant of the column: swift-async-algorithms' `,` (delay next).
    public static let notAsked: Character = ","
    /// An `into`'s send waiting for a consumer of its channel at the column's end.
    public static let waiting: Character = ">"
    /// An element a queue's policy dropped in the column (`buffer N policy: newest|oldest`).
    public static let dropped: Character = "x"
    /// A count of ten or more held.
    public static let many: Character = "+"
  }

  /// The consumer's requests, in order.
  public let asks: [Span]
  /// An `into`'s sends that waited for a consumer, in order.
  public let sends: [Span]
  /// The last column an event of the node fell in (its lane's length).
  private let lastColumn: Int
  private let recorder: DiagramRecorder

  /// Reads a node's events (a live run's or a saved trace's), demand and answers in order.
  public init(_ events: [(Duration, TraceFile.EventKind)], tick: Duration) {
    var asks: [Span] = []
    var sends: [Span] = []
    var asked: Duration?
    var sending: (time: Duration, channel: String)?
    var ended = false
    for (time, kind) in events {
      switch kind {
      // After its end a node answers at once with its end again, which is no event: an ask then
      // (throttle asks its input once more after the input finished) is no outstanding request.
      case _ where ended: continue
      case .start: continue
      case .asked:
        if let asked { asks.append(Span(from: asked, to: time, channel: nil)) }
        asked = time
      case .sending(let channel):
        sending = (time, channel)
      case .element, .finished, .failed, .cancelled:
        if let from = asked { asks.append(Span(from: from, to: time, channel: nil)) }
        if let from = sending { sends.append(Span(from: from.time, to: time, channel: from.channel)) }
        asked = nil
        sending = nil
        if case .element = kind {} else { ended = true }
      }
    }
    if let asked { asks.append(Span(from: asked, to: nil, channel: nil)) }
    if let sending { sends.append(Span(from: sending.time, to: nil, channel: sending.channel)) }
    self.asks = asks
    self.sends = sends
    let recorder = DiagramRecorder(tick: tick)
    self.recorder = recorder
    lastColumn = min(events.map { recorder.column(of: $0.0) }.max() ?? 0, DiagramRecorder.maximumColumns)
  }

  /// The channels its sends went to, in the order it first sent to each.
  public var channels: [String] {
    sends.compactMap(\.channel).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
  }

  /// The requests a column at a time: `-` outstanding at the column's end, `.` answered in it and
  /// none left, `,` none at any instant of it. Nil when the node was never asked (a sink).
  public var askLine: String? {
    asks.isEmpty ? nil : line(asks, outstanding: Mark.asked, idle: Mark.notAsked)
  }

  /// An `into`'s sends a column at a time: `>` waiting for a consumer at the column's end, `.` taken
  /// in it and none waiting, a space when it was not sending. Nil when it sent nothing.
  public var sendLine: String? {
    sends.isEmpty ? nil : line(sends, outstanding: Mark.waiting, idle: " ")
  }

  private func line(_ spans: [Span], outstanding: Character, idle: Character) -> String {
    guard lastColumn > 0 else { return "" }
    var marks = [Character](repeating: idle, count: lastColumn + 1)
    for span in spans {
      let from = recorder.column(of: span.from)
      let to = span.to.map { recorder.column(of: $0) } ?? lastColumn + 1
      guard from <= lastColumn else { continue }
      for column in from..<min(to, lastColumn + 1) { marks[column] = outstanding }
      if to <= lastColumn, marks[to] != outstanding { marks[to] = Mark.answered }
    }
    return String(marks.dropFirst())
  }

  /// What a queue held a column at a time: its count at the column's end (a digit, `+` for ten or
  /// more), `x` in a column where its policy dropped an element; up to the node's last column.
  public func heldLine(_ holdings: [ElementFates.Holding], dropped: [Duration]) -> String {
    guard lastColumn > 0 else { return "" }
    var marks = [Character](repeating: "0", count: lastColumn + 1)
    for (index, holding) in holdings.enumerated() {
      let from = recorder.column(of: holding.time)
      let to = index + 1 < holdings.count ? recorder.column(of: holdings[index + 1].time) : lastColumn + 1
      guard from <= lastColumn else { continue }
      let mark = holding.held < 10 ? Character(String(holding.held)) : Mark.many
      // A count holds from its column on; a later one of the same column is its end's.
      for column in from..<max(from + 1, min(to, lastColumn + 1)) { marks[column] = mark }
    }
    for time in dropped {
      let column = recorder.column(of: time)
      if column <= lastColumn { marks[column] = Mark.dropped }
    }
    return String(marks.dropFirst())
  }
}

extension ElementFates.Account {
  /// The instants its policy dropped an element (`buffer N policy: newest|oldest`).
  public var dropTimes: [Duration] {
    lost.compactMap { lost in
      if case .lost(.bufferFull(_), _) = lost.fate { lost.at } else { nil }
    }
  }
}
