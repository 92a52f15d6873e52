import PipeShell
import PipeSyntax

/// `pipesh lsp`: the Language Server Protocol for `.pipe` files, from the parser, checker,
/// catalogue, help and formatter the shell uses. One message in, the messages to send out: the
/// server does no reading or writing of its own (`LanguageServerLoop` does), so it is tested in
/// process.
public final class LanguageServer {
  /// What handling one message gives: the messages to send, in order, and, after `exit`, the
  /// status to end the process with.
  public struct Reply: Sendable {
    public var messages: [JSON] = []
    public var exitStatus: Int32?
  }

  /// JSON-RPC's and the protocol's error codes.
  enum ErrorCode: Int {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case serverNotInitialized = -32002
    case requestFailed = -32803
  }

  /// A request that cannot be answered: the error sent back.
  struct Failure: Error {
    let code: ErrorCode
    let message: String
  }

  private enum Phase {
    case starting, running, shuttingDown
  }

  private var phase = Phase.starting
  var encoding = PositionEncoding.utf16
  var documents: [String: Document] = [:]

  public init() {}

  /// Handles one frame from the client.
  public func handle(_ frame: FrameReader.Frame) async -> Reply {
    switch frame {
    case .malformed(let problem):
      return Reply(messages: [Self.error(id: .null, .parseError, "not a message: \(problem)")])
    case .message(let bytes):
      guard let message = JSON.parse(bytes) else {
        return Reply(messages: [Self.error(id: .null, .parseError, "the message is not JSON")])
      }
      return await handle(message)
    }
  }

  /// Handles one JSON-RPC message: a request (with an id) is answered, a notification is not.
  public func handle(_ message: JSON) async -> Reply {
    guard case .object = message, let method = message["method"]?.string else {
      // A response to a request of ours (the server sends none) or no message at all.
      if message["id"] != nil, message["result"] != nil || message["error"] != nil { return Reply() }
      return Reply(messages: [Self.error(id: message["id"] ?? .null, .invalidRequest, "a request needs a method")])
    }
    let id = message["id"]
    let params = message["params"] ?? .null
    if let id {
      switch id {
      case .int, .string: return await answer(id: id, method: method, params: params)
      default:
        return Reply(messages: [Self.error(id: .null, .invalidRequest, "a request's id is a number or a string")])
      }
    }
    return notice(method: method, params: params)
  }

  private func answer(id: JSON, method: String, params: JSON) async -> Reply {
    var reply = Reply()
    let result: Result<JSON, Failure>
    switch (phase, method) {
    case (.starting, "initialize"):
      phase = .running
      result = .success(initialize(params))
    case (.starting, _):
      result = .failure(Failure(code: .serverNotInitialized, message: "initialize comes first"))
    case (.shuttingDown, _):
      result = .failure(Failure(code: .invalidRequest, message: "the server is shutting down: only exit is taken"))
    case (.running, "initialize"):
      result = .failure(Failure(code: .invalidRequest, message: "the server is initialized already"))
    case (.running, "shutdown"):
      phase = .shuttingDown
      result = .success(.null)
    case (.running, _):
      guard let request = Request(rawValue: method) else {
        result = .failure(Failure(code: .methodNotFound, message: "pipesh lsp does not answer \(method)"))
        break
      }
      result = await answer(request, params)
    }
    switch result {
    case .success(let value): reply.messages.append(["jsonrpc": "2.0", "id": id, "result": value])
    case .failure(let failure): reply.messages.append(Self.error(id: id, failure.code, failure.message))
    }
    return reply
  }

  private func notice(method: String, params: JSON) -> Reply {
    var reply = Reply()
    if method == "exit" {
      reply.exitStatus = phase == .shuttingDown ? 0 : 1
      return reply
    }
    // Before initialize, notifications are dropped (the protocol's rule); so are unknown ones.
    guard phase == .running else { return reply }
    let uri = params["textDocument"]?["uri"]?.string
    switch method {
    case "textDocument/didOpen":
      guard let uri, let text = params["textDocument"]?["text"]?.string else { return reply }
      documents[uri] = Document(uri: uri, version: params["textDocument"]?["version"]?.int ?? 0, text: text)
      reply.messages.append(diagnostics(uri))
    case "textDocument/didChange":
      guard let uri, var document = documents[uri] else { return reply }
      let version = params["textDocument"]?["version"]?.int ?? document.version + 1
      for change in params["contentChanges"]?.array ?? [] {
        guard let text = change["text"]?.string else {
          reply.messages.append(Self.log("an edit of \(uri) without its text was not applied: reopen the file"))
          continue
        }
        guard let range = change["range"], range != .null else {
          document.change(text, in: nil, version: version)
          continue
        }
        guard let start = editOffset(range["start"], in: document), let end = editOffset(range["end"], in: document)
        else {
          reply.messages.append(
            Self.log("an edit of \(uri) whose range is no place in it was not applied: reopen the file"))
          continue
        }
        document.change(text, in: (min(start, end), max(start, end)), version: version)
      }
      documents[uri] = document
      reply.messages.append(diagnostics(uri))
    case "textDocument/didClose":
      guard let uri, documents.removeValue(forKey: uri) != nil else { return reply }
      reply.messages.append(
        [
          "jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
          "params": ["uri": .string(uri), "diagnostics": []],
        ])
    default:
      break
    }
    return reply
  }

  private func initialize(_ params: JSON) -> JSON {
    let offered = params["capabilities"]?["general"]?["positionEncodings"]?.array?.compactMap(\.string) ?? []
    encoding = offered.contains(PositionEncoding.utf8.rawValue) ? .utf8 : .utf16
    return [
      "capabilities": [
        "positionEncoding": .string(encoding.rawValue),
        "textDocumentSync": ["openClose": true, "change": 2],
        "hoverProvider": true,
        "completionProvider": ["triggerCharacters": ["|", " ", "(", ","]],
        "definitionProvider": true,
        "documentSymbolProvider": true,
        "documentFormattingProvider": true,
        "codeActionProvider": ["codeActionKinds": [.string(Self.exportKind)]],
      ],
      "serverInfo": ["name": "pipesh", "version": "0.1.0"],
    ]
  }

  /// The byte offset of an edit's `Position` in `document`, or nil for what is no position.
  func editOffset(_ position: JSON?, in document: Document) -> Int? {
    guard let line = position?["line"]?.int, let character = position?["character"]?.int else { return nil }
    return document.editOffset(line: line, character: character, encoding)
  }

  /// `window/logMessage`, an error: what the server could not do with a notification (which has
  /// no answer to say it in).
  static func log(_ message: String) -> JSON {
    ["jsonrpc": "2.0", "method": "window/logMessage", "params": ["type": 1, "message": .string(message)]]
  }

  static func error(id: JSON, _ code: ErrorCode, _ message: String) -> JSON {
    ["jsonrpc": "2.0", "id": id, "error": ["code": .int(code.rawValue), "message": .string(message)]]
  }
}
