import Foundation

/// What the server sends a page, each as one JSON text frame: an object whose `type` says which.
public enum ServerMessage: Equatable, Sendable, Encodable {
  /// A run's outcome: pipesh's exit status, the HTML fragment it printed, and the run's milliseconds.
  case result(id: Int, status: Int, html: String, milliseconds: Int)
  /// The Swift export of a script, its exported test (nil when there is none) and what pipesh said.
  case export(id: Int, swift: String, test: String?, message: String)
  /// Something the server could not do with a message; the connection stays usable.
  case error(String)
  /// An event of the presented session (present mode).
  case present(PresentEvent)

  /// The frame's text.
  public var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    do {
      return String(decoding: try encoder.encode(self), as: UTF8.self)
    } catch {
      // Strings, whole numbers and booleans always encode: this is not reached.
      return #"{"type":"error","message":"the server could not write its answer as JSON"}"#
    }
  }

  /// Every key of every message, and of the objects inside one.
  enum Key: String, CodingKey {
    case type, id, status, html, ms, swift, test, message
    case event, transcript, top, picture, ended, kind, prompt, text, title, svg
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    switch self {
    case .result(let id, let status, let html, let milliseconds):
      try container.encode("result", forKey: .type)
      try container.encode(id, forKey: .id)
      try container.encode(status, forKey: .status)
      try container.encode(html, forKey: .html)
      try container.encode(milliseconds, forKey: .ms)
    case .export(let id, let swift, let test, let message):
      try container.encode("export", forKey: .type)
      try container.encode(id, forKey: .id)
      try container.encode(swift, forKey: .swift)
      try container.encode(orNull: test, forKey: .test)
      try container.encode(message, forKey: .message)
    case .error(let message):
      try container.encode("error", forKey: .type)
      try container.encode(message, forKey: .message)
    case .present(let event):
      try container.encode("present", forKey: .type)
      try event.encode(into: &container)
    }
  }
}

extension PresentEvent {
  /// The event's fields, beside the message's `type`.
  func encode(into container: inout KeyedEncodingContainer<ServerMessage.Key>) throws {
    switch self {
    case .state(let presentation):
      try container.encode("state", forKey: .event)
      try container.encode(presentation.transcript, forKey: .transcript)
      try container.encode(orNull: presentation.top, forKey: .top)
      if let picture = presentation.picture {
        var object = container.nestedContainer(keyedBy: ServerMessage.Key.self, forKey: .picture)
        try object.encode(picture.title, forKey: .title)
        try object.encode(picture.svg, forKey: .svg)
      } else {
        try container.encodeNil(forKey: .picture)
      }
      try container.encode(presentation.ended, forKey: .ended)
    case .fed(.input(let prompt, let text)):
      try container.encode("input", forKey: .event)
      try container.encode(prompt, forKey: .prompt)
      try container.encode(text, forKey: .text)
    case .fed(.output(let text)):
      try container.encode("output", forKey: .event)
      try container.encode(text, forKey: .text)
    case .fed(.top(let text)):
      try container.encode("top", forKey: .event)
      try container.encode(text, forKey: .text)
    case .fed(.picture(let title, let svg)):
      try container.encode("picture", forKey: .event)
      try container.encode(title, forKey: .title)
      try container.encode(svg, forKey: .svg)
    case .ended:
      try container.encode("ended", forKey: .event)
    }
  }
}

extension Presentation.Segment: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: ServerMessage.Key.self)
    switch self {
    case .input(let prompt, let text):
      try container.encode("input", forKey: .kind)
      try container.encode(prompt, forKey: .prompt)
      try container.encode(text, forKey: .text)
    case .output(let text):
      try container.encode("output", forKey: .kind)
      try container.encode(text, forKey: .text)
    }
  }
}

extension KeyedEncodingContainer {
  /// `value`, or JSON's `null` where it is nil (the page reads a missing test or top as `null`).
  fileprivate mutating func encode(orNull value: String?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
}
