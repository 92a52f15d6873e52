import Foundation

/// What a page may ask of the server over its WebSocket: run a script, or export it to Swift.
public enum ClientMessage: Equatable, Sendable {
  /// `{"type":"run","id":N,"script":"…"}`: run the script for the page's picture.
  case run(id: Int, script: String)
  /// `{"type":"export","id":N,"script":"…"}`: the script's Swift export and exported test.
  case export(id: Int, script: String)

  /// The largest message the server reads: a script over it is refused with a message.
  public static let sizeLimit = 1 << 20

  /// Reads one text frame. Anything but a well-formed message of a known type is a
  /// `ProtocolError` whose text tells the sender what to send instead; nothing here traps.
  public static func decode(_ bytes: some Collection<UInt8>) -> Result<ClientMessage, ProtocolError> {
    guard bytes.count <= sizeLimit else { return .failure(.tooLarge(bytes: bytes.count)) }
    let fields: Fields
    do {
      fields = try JSONDecoder().decode(Fields.self, from: Data(bytes))
    } catch let error as ProtocolError {
      return .failure(error)
    } catch {
      return .failure(.malformed)
    }
    guard let type = fields.type else { return .failure(.missingField("type", "a string")) }
    switch type {
    case "run", "export":
      guard let id = fields.id, id >= 0 else { return .failure(.missingField("id", "a whole number from 0")) }
      guard let script = fields.script else { return .failure(.missingField("script", "a string")) }
      return .success(type == "run" ? .run(id: id, script: script) : .export(id: id, script: script))
    default:
      return .failure(.unknownType(type))
    }
  }

  /// The fields the server reads, each `nil` when missing or of the wrong type.
  struct Fields: Decodable {
    let type: String?
    let id: Int?
    let script: String?

    enum Key: String, CodingKey {
      case type, id, script
    }

    init(from decoder: any Decoder) throws {
      guard let container = try? decoder.container(keyedBy: Key.self) else { throw ProtocolError.notAnObject }
      type = try? container.decode(String.self, forKey: .type)
      id = try? container.decode(Int.self, forKey: .id)
      script = try? container.decode(String.self, forKey: .script)
    }
  }
}

/// Why a message from a page was not acted on; its `description` is what the page is told.
public enum ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The message is over `ClientMessage.sizeLimit`.
  case tooLarge(bytes: Int)
  /// The text is not JSON.
  case malformed
  /// The JSON is not an object.
  case notAnObject
  /// A field is missing or has the wrong type: its name and what it should be.
  case missingField(String, String)
  /// The object's `type` is none the server knows.
  case unknownType(String)
  /// A binary frame, where the protocol has only text.
  case binary

  public var description: String {
    switch self {
    case .tooLarge(let bytes):
      "a message of \(bytes) bytes is over the limit of \(ClientMessage.sizeLimit) bytes (1 MB); nothing was run"
    case .malformed: "the message is not JSON: send {\"type\":\"run\",\"id\":1,\"script\":\"…\"}"
    case .notAnObject: "the message is not a JSON object: send {\"type\":\"run\",\"id\":1,\"script\":\"…\"}"
    case .missingField(let name, let what): "the message's \"\(name)\" must be \(what)"
    case .unknownType(let type):
      "unknown message type \"\(String(type.prefix(40)))\": the types are \"run\" and \"export\""
    case .binary: "binary frames are not understood: send JSON text"
    }
  }
}
