// FoundationEssentials where it exists: Foundation's whole would bring ICU's data into pipesh,
// which a small address space (`ulimit -v`) cannot map before main runs.
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A JSON value as the protocol's messages carry it: read with `JSONDecoder`, written with
/// `JSONEncoder` (keys sorted, so a test can compare what the server wrote).
public enum JSON: Sendable, Hashable, Codable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSON])
  case object([String: JSON])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int.self) {
      self = .int(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSON].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .int(let value): try container.encode(value)
    case .double(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// The member `key` of an object; nil for anything else or a missing key.
  public subscript(key: String) -> JSON? {
    if case .object(let members) = self { members[key] } else { nil }
  }

  public var string: String? {
    if case .string(let value) = self { value } else { nil }
  }

  public var int: Int? {
    if case .int(let value) = self { value } else { nil }
  }

  public var array: [JSON]? {
    if case .array(let value) = self { value } else { nil }
  }

  /// The message's bytes, or nil for what cannot be JSON (a string that is no Unicode).
  public static func parse(_ bytes: [UInt8]) -> JSON? {
    try? JSONDecoder().decode(JSON.self, from: Data(bytes))
  }

  /// The value's text, keys sorted.
  public var text: String { text(pretty: false) }

  /// The value's text, keys sorted; `pretty`, a member a line, indented (for a file people read).
  public func text(pretty: Bool) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    if pretty { encoder.outputFormatting.insert(.prettyPrinted) }
    // Every case encodes (a Double that is not finite is never made by the server).
    guard let data = try? encoder.encode(self) else { return "null" }
    return String(decoding: data, as: UTF8.self)
  }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, JSON)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
  public init(nilLiteral: ()) { self = .null }
}
