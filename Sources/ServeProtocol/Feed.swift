import Foundation

/// One line of the present feed: what the presented shell showed, as pipesh writes it to
/// pipesh-serve's standard input (one JSON object per line).
public enum FeedEvent: Equatable, Sendable {
  /// A line the user entered at the prompt.
  case input(prompt: String, text: String)
  /// Text the session wrote to the terminal.
  case output(String)
  /// A plain-text snapshot of `top`.
  case top(String)
  /// The picture of a draw, trace or compare.
  case picture(title: String, svg: String)

  /// The event as the transcript shows it: output always ends its line (pipesh feeds each line the
  /// session writes without its newline; a chunk that ends with one is kept as it is).
  public var endingItsLine: FeedEvent {
    if case .output(let text) = self, !text.hasSuffix("\n") { return .output(text + "\n") }
    return self
  }

  /// Reads one feed line; `nil` for a line that is not JSON, of an unknown type, or missing a field
  /// (the feed's readers ignore what they do not know).
  public static func decode(_ line: some Collection<UInt8>) -> FeedEvent? {
    guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(line)), let type = fields.type else {
      return nil
    }
    switch type {
    case "input": return fields.text.map { .input(prompt: fields.prompt ?? "", text: $0) }
    case "output": return fields.text.map { .output($0) }
    case "top": return fields.text.map { .top($0) }
    case "picture": return fields.svg.map { .picture(title: fields.title ?? "", svg: $0) }
    default: return nil
    }
  }

  struct Fields: Decodable {
    let type: String?
    let prompt: String?
    let text: String?
    let title: String?
    let svg: String?

    enum Key: String, CodingKey {
      case type, prompt, text, title, svg
    }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Key.self)
      type = try? container.decode(String.self, forKey: .type)
      prompt = try? container.decode(String.self, forKey: .prompt)
      text = try? container.decode(String.self, forKey: .text)
      title = try? container.decode(String.self, forKey: .title)
      svg = try? container.decode(String.self, forKey: .svg)
    }
  }
}

/// What a viewer of a presented session is sent: the state first, then each change.
public enum PresentEvent: Equatable, Sendable {
  /// The whole state, for a viewer that joins (the transcript, the latest top and picture, and
  /// whether the shell has ended).
  case state(Presentation)
  /// A feed event as it arrives.
  case fed(FeedEvent)
  /// The presented shell has ended: no more events come.
  case ended
}

/// The presented session as a viewer that joins now is shown it: the transcript (its last
/// `transcriptLimit` bytes), the latest `top` and the latest picture.
public struct Presentation: Equatable, Sendable {
  /// A stretch of the transcript: an entered line, or output.
  public enum Segment: Equatable, Sendable {
    case input(prompt: String, text: String)
    case output(String)

    var size: Int {
      switch self {
      case .input(let prompt, let text): prompt.utf8.count + text.utf8.count
      case .output(let text): text.utf8.count
      }
    }
  }

  public private(set) var transcript: [Segment] = []
  public private(set) var top: String?
  public private(set) var picture: (title: String, svg: String)?
  public private(set) var ended = false
  /// The bytes of text the transcript holds at most; older segments are let go of first.
  public let transcriptLimit: Int
  private var transcriptSize = 0

  public init(transcriptLimit: Int = 200 * 1024) {
    self.transcriptLimit = transcriptLimit
  }

  public static func == (lhs: Presentation, rhs: Presentation) -> Bool {
    lhs.transcript == rhs.transcript && lhs.top == rhs.top && lhs.picture?.title == rhs.picture?.title
      && lhs.picture?.svg == rhs.picture?.svg && lhs.ended == rhs.ended
  }

  /// Takes in one feed event.
  public mutating func apply(_ event: FeedEvent) {
    switch event {
    case .input(let prompt, let text): append(.input(prompt: prompt, text: text))
    case .output(let text): append(.output(text))
    case .top(let text): top = text
    case .picture(let title, let svg): picture = (title, svg)
    }
  }

  /// The feed has closed.
  public mutating func end() {
    ended = true
  }

  private mutating func append(_ segment: Segment) {
    var segment = segment
    if case .output(let text) = segment, text.utf8.count > transcriptLimit {
      segment = .output(String(decoding: text.utf8.suffix(transcriptLimit), as: UTF8.self))
    }
    transcript.append(segment)
    transcriptSize += segment.size
    var dropped = 0
    while transcriptSize > transcriptLimit, dropped < transcript.count - 1 {
      transcriptSize -= transcript[dropped].size
      dropped += 1
    }
    transcript.removeFirst(dropped)
  }
}
