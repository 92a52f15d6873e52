import LanguageServer
import PipeShell
import PipeSyntax
import Testing

/// A client's session with the server, in process: what an editor sends and what it gets back.
final class Client {
  let server = LanguageServer()
  private var nextID = 0
  let uri = "file:///work/lesson%20one.pipe"

  /// Sends a request and returns its response (the server sends nothing else for a request).
  func request(_ method: String, _ params: JSON = nil) async -> JSON {
    nextID += 1
    let reply = await server.handle(["jsonrpc": "2.0", "id": .int(nextID), "method": .string(method), "params": params])
    #expect(reply.messages.count == 1, "\(reply.messages)")
    #expect(reply.messages.first?["id"] == .int(nextID))
    return reply.messages.first ?? nil
  }

  /// Sends a notification and returns what it made the server send.
  func notify(_ method: String, _ params: JSON = nil) async -> [JSON] {
    await server.handle(["jsonrpc": "2.0", "method": .string(method), "params": params]).messages
  }

  static func started(utf8: Bool = false) async -> Client {
    let client = Client()
    let encodings: JSON = utf8 ? ["utf-8", "utf-16"] : ["utf-16"]
    _ = await client.request("initialize", ["capabilities": ["general": ["positionEncodings": encodings]]])
    _ = await client.notify("initialized", [:])
    return client
  }

  /// Opens the document and returns the diagnostics published for it.
  func open(_ text: String) async -> [JSON] {
    let sent = await notify(
      "textDocument/didOpen",
      ["textDocument": ["uri": .string(uri), "languageId": "pipe", "version": 1, "text": .string(text)]])
    return sent.first?["params"]?["diagnostics"]?.array ?? []
  }

  func at(_ line: Int, _ character: Int) -> JSON {
    ["textDocument": ["uri": .string(uri)], "position": ["line": .int(line), "character": .int(character)]]
  }
}

func position(_ line: Int, _ character: Int) -> JSON {
  ["line": .int(line), "character": .int(character)]
}

@Suite("pipesh lsp")
struct LanguageServerTests {
  @Test func initializeSaysWhatTheServerDoesAndPicksUTF8OnlyWhenOffered() async {
    let plain = Client()
    let answer = await plain.request("initialize", ["capabilities": [:]])
    let capabilities = answer["result"]?["capabilities"]
    #expect(capabilities?["positionEncoding"] == "utf-16")
    #expect(capabilities?["hoverProvider"] == true && capabilities?["definitionProvider"] == true)
    #expect(capabilities?["textDocumentSync"]?["change"] == 2)
    let offered = Client()
    let utf8 = await offered.request(
      "initialize", ["capabilities": ["general": ["positionEncodings": ["utf-16", "utf-8"]]]])
    #expect(utf8["result"]?["capabilities"]?["positionEncoding"] == "utf-8")
  }

  /// The same diagnostics as `pipesh --check`: message, notes, id and place; the column counts
  /// UTF-16 units after an emoji (2 for 🚀) and bytes when UTF-8 was agreed (4).
  @Test(arguments: [false, true])
  func diagnosticsAreCheckSaysAtTheRightColumn(_ utf8: Bool) async {
    let client = await Client.started(utf8: utf8)
    let text = "# a lesson\nfrom \"🚀\" | mapp { $0 }\n"
    let diagnostics = await client.open(text)
    let checked = Shell.check(SourceFile(name: nil, text: text))
    #expect(diagnostics.count == checked.count && checked.count == 1)
    let rocket = utf8 ? 4 : 2
    #expect(diagnostics.first?["range"] == ["start": position(1, 10 + rocket), "end": position(1, 14 + rocket)])
    #expect(diagnostics.first?["message"] == "unknown operator 'mapp'\nnote: did you mean 'map'?")
    #expect(diagnostics.first?["message"]?.string?.hasPrefix(checked.first?.message ?? "-") == true)
    #expect(diagnostics.first?["code"] == .string(checked.first?.id.rawValue ?? "-"))
    #expect(diagnostics.first?["severity"] == 1)
  }

  @Test func anEditInARangeIsAppliedAndTheDiagnosticsFollowIt() async {
    let client = await Client.started()
    #expect(await client.open("from 1 2 | mapp { $0 }\n").count == 1)
    // Delete the second p of mapp: the line is fine.
    let fixed = await client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(client.uri), "version": 2],
        "contentChanges": [["range": ["start": position(0, 13), "end": position(0, 14)], "text": ""]],
      ])
    #expect(fixed.first?["params"]?["diagnostics"] == [])
    #expect(fixed.first?["params"]?["version"] == 2)
    let broken = await client.notify(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(client.uri), "version": 3], "contentChanges": [["text": "take 1 |\n"]]])
    let checked = Shell.check(SourceFile(name: nil, text: "take 1 |\n"))
    #expect(broken.first?["params"]?["diagnostics"]?.array?.count == checked.count && !checked.isEmpty)
    let closed = await client.notify("textDocument/didClose", ["textDocument": ["uri": .string(client.uri)]])
    #expect(closed.first?["params"]?["diagnostics"] == [])
  }

  @Test func hoverSaysWhatHelpSaysAndALetNameShowsItsDefinition() async throws {
    let client = await Client.started()
    _ = await client.open("let evens = filter { $0 % 2 == 0 }\nfrom 1 2 3 4 | evens | debounce 1s\n")
    let help = try #require(await Shell.helpLines("debounce"))
    let hover = await client.request("textDocument/hover", client.at(1, 27))
    let value = hover["result"]?["contents"]?["value"]?.string ?? ""
    #expect(value == "```\n" + help.joined(separator: "\n") + "\n```")
    #expect(hover["result"]?["range"] == ["start": position(1, 23), "end": position(1, 31)])
    let binding = await client.request("textDocument/hover", client.at(1, 17))
    #expect(binding["result"]?["contents"]?["value"] == "```\nlet evens = filter { $0 % 2 == 0 }\n```")
    let nothing = await client.request("textDocument/hover", client.at(1, 9))
    #expect(nothing["result"] == .null)
  }

  @Test func completionOffersOperatorsAfterABarAndTheScriptsNames() async {
    let client = await Client.started()
    _ = await client.open("let evens = filter { $0 % 2 == 0 }\nchannel inbox of: Int | print &\nfrom 1 2 | e\nsend \n")
    let items = await client.request("textDocument/completion", client.at(2, 12))["result"]?["items"]?.array ?? []
    let labels = items.compactMap { $0["label"]?.string }
    #expect(labels.contains("evens") && labels.contains("enumerated"), "\(labels)")
    #expect(!labels.contains("from") && !labels.contains("map"))
    #expect(items.first { $0["label"] == "evens" }?["kind"] == 6)
    #expect(items.first { $0["label"] == "enumerated" }?["kind"] == 3)
    let channels = await client.request("textDocument/completion", client.at(3, 5))["result"]?["items"]?.array ?? []
    #expect(channels.compactMap { $0["label"]?.string } == ["inbox"])
  }

  @Test func definitionFindsTheLatestLetAndTheChannelsFirstPlace() async {
    let client = await Client.started()
    let text = """
      let twice = map { $0 * 2 }
      let twice = map { $0 * 3 }
      channel inbox of: Int | twice | print &
      send inbox 1
      """
    _ = await client.open(text)
    let binding = await client.request("textDocument/definition", client.at(2, 26))
    #expect(binding["result"]?["range"] == ["start": position(1, 4), "end": position(1, 9)])
    #expect(binding["result"]?["uri"] == .string(client.uri))
    let channel = await client.request("textDocument/definition", client.at(3, 7))
    #expect(channel["result"]?["range"] == ["start": position(2, 8), "end": position(2, 13)])
    let symbols = await client.request("textDocument/documentSymbol", ["textDocument": ["uri": .string(client.uri)]])
    #expect(symbols["result"]?.array?.compactMap { $0["name"]?.string } == ["twice", "twice", "inbox"])
  }

  @Test func formattingIsFmtsLayoutAndRefusesBrokenSyntax() async throws {
    let client = await Client.started()
    _ = await client.open("from 1 2|map{$0*2}  |print\n")
    let edits = await client.request("textDocument/formatting", ["textDocument": ["uri": .string(client.uri)]])
    #expect(edits["result"]?.array?.first?["newText"] == "from 1 2 | map { $0 * 2 } | print\n")
    #expect(edits["result"]?.array?.first?["range"] == ["start": position(0, 0), "end": position(1, 0)])
    _ = await client.notify(
      "textDocument/didChange",
      ["textDocument": ["uri": .string(client.uri), "version": 2], "contentChanges": [["text": "from 1 | map {\n"]]])
    let refused = await client.request("textDocument/formatting", ["textDocument": ["uri": .string(client.uri)]])
    #expect(refused["error"]?["code"] == -32803)
  }

  @Test func exportAsSwiftWritesWhatEmitSwiftPrints() async throws {
    let client = await Client.started()
    let text = "from 1 2 3 | map { $0 * 2 } | print\n"
    _ = await client.open(text)
    let actions = await client.request(
      "textDocument/codeAction",
      ["textDocument": ["uri": .string(client.uri)], "range": ["start": position(0, 0), "end": position(0, 0)]])
    let changes = actions["result"]?.array?.first?["edit"]?["documentChanges"]?.array ?? []
    #expect(changes.first?["uri"] == "file:///work/lesson%20one.swift")
    let program = try Shell.exportedSwift(SourceFile(name: "/work/lesson one.pipe", text: text)).get()
    #expect(changes.last?["edits"]?.array?.first?["newText"] == .string(program))
    #expect(program.contains("import AsyncAlgorithms") || program.contains("for try await"))
  }

  /// Positions at the edge of what a number can be, negative ones, and edits past the end.
  @Test(arguments: [false, true])
  func hostilePositionsGetErrorsAndEditsPastTheEndStopThere(_ utf8: Bool) async {
    let client = await Client.started(utf8: utf8)
    _ = await client.open("from 1\nfrom 2\n")
    #expect(await client.request("textDocument/hover", client.at(1, Int.max))["result"] == .null)
    #expect(await client.request("textDocument/hover", client.at(0, -5))["error"]?["code"] == -32602)
    #expect(await client.request("textDocument/hover", client.at(Int.min, 0))["error"]?["code"] == -32602)
    let edited = await client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(client.uri), "version": 2],
        "contentChanges": [["range": ["start": position(1, 0), "end": position(9, 0)], "text": "take 1\n"]],
      ])
    #expect(edited.first?["params"]?["diagnostics"]?.array?.count == 1, "\(edited)")
    let full = await client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(client.uri), "version": 3],
        "contentChanges": [["range": nil, "text": "from 3\n"]],
      ])
    #expect(full.first?["params"]?["diagnostics"] == [], "\(full)")
    let nowhere = await client.notify(
      "textDocument/didChange",
      [
        "textDocument": ["uri": .string(client.uri), "version": 4],
        "contentChanges": [["range": ["start": position(0, -1), "end": position(0, 0)], "text": "x"]],
      ])
    #expect(nowhere.first?["method"] == "window/logMessage", "an edit not applied is said: \(nowhere)")
  }

  /// `let xs = xs | …`: the `xs` after `=` is the `let` above; a word in a comment or a string is
  /// no name.
  @Test func aLetThatNamesItselfMeansTheOneBefore() async {
    let client = await Client.started()
    _ = await client.open("let xs = from 1 2\n# xs here is a comment\nlet xs = xs | map { $0 }\nfrom \"xs\"\n")
    let before = await client.request("textDocument/definition", client.at(2, 10))
    #expect(before["result"]?["range"] == ["start": position(0, 4), "end": position(0, 6)])
    let itself = await client.request("textDocument/definition", client.at(2, 5))
    #expect(itself["result"]?["range"] == ["start": position(2, 4), "end": position(2, 6)])
    #expect(await client.request("textDocument/hover", client.at(1, 3))["result"] == .null)
    #expect(await client.request("textDocument/definition", client.at(3, 7))["result"] == .null)
  }

  /// Each item replaces the word Tab would, a path's slashes included; a line that goes on from
  /// the one before it (after `|`) completes as the statement's next stage.
  @Test func completionReplacesTheWordAndReadsTheWholeStatement() async {
    let client = await Client.started()
    _ = await client.open("from 1 2 |\n  ma\nfrom 1 | take 1 to\n")
    let items = await client.request("textDocument/completion", client.at(1, 4))["result"]?["items"]?.array ?? []
    let labels = items.compactMap { $0["label"]?.string }
    #expect(labels.contains("map") && !labels.contains("marble"), "\(labels)")
    #expect(items.first?["textEdit"]?["range"] == ["start": position(1, 2), "end": position(1, 4)])
    // As the lexer reads lines: a comment ending in | continues nothing, a comment after | and a
    // blank line do not end the statement, an open bracket goes on.
    let cases: [(String, String, String)] = [
      ("# pipe it through |\ndra", "draw", "drain"), ("from 1 2 | # then\n  ma", "map", "marble"),
      ("from 1 2 |\n\n  ma", "map", "marble"), ("merge(from 1 2,\n  ma", "marble", "map"),
    ]
    for (text, offered, notOffered) in cases {
      let other = await Client.started()
      _ = await other.open(text + "\n")
      let line = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      let last = text.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
      let found = await other.request("textDocument/completion", other.at(line, last.utf16.count))
      let names = found["result"]?["items"]?.array?.compactMap { $0["label"]?.string } ?? []
      #expect(names.contains(offered) && !names.contains(notOffered), "\(text): \(names)")
    }
  }

  @Test func garbageGetsErrorsNeverACrash() async {
    let server = LanguageServer()
    let early = await server.handle(["jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": [:]])
    #expect(early.messages.first?["error"]?["code"] == -32002)
    let notJSON = await server.handle(.message(Array("{\"id\": 1,".utf8)))
    #expect(notJSON.messages.first?["error"]?["code"] == -32700)
    let framing = await server.handle(.malformed("a header line without a colon"))
    #expect(framing.messages.first?["error"]?["code"] == -32700)
    let client = await Client.started()
    #expect(await client.request("workspace/symbol", [:])["error"]?["code"] == -32601)
    #expect(await client.request("textDocument/hover", client.at(0, 0))["error"]?["code"] == -32602)
    _ = await client.open("from 1\n")
    #expect(await client.request("textDocument/hover", client.at(7, 0))["error"]?["code"] == -32602)
    #expect(await client.request("textDocument/hover", client.at(0, 900))["result"] == .null)
    let noMethod = await client.server.handle(["jsonrpc": "2.0", "id": [1]])
    #expect(noMethod.messages.first?["error"]?["code"] == -32600)
    #expect(await client.request("shutdown")["result"] == .null)
    #expect(await client.request("textDocument/hover", client.at(0, 0))["error"]?["code"] == -32600)
    #expect(await client.server.handle(["jsonrpc": "2.0", "method": "exit"]).exitStatus == 0)
    let abrupt = await Client.started()
    #expect(await abrupt.server.handle(["jsonrpc": "2.0", "method": "exit"]).exitStatus == 1)
  }
}

@Suite("the protocol's framing")
struct FramingTests {
  @Test func messagesSplitAnywhereComeOutWhole() {
    let bytes = FrameReader.frame("{\"a\":1}") + FrameReader.frame("{\"b\":\"ü\"}")
    for cut in 0...bytes.count {
      var reader = FrameReader()
      var frames: [FrameReader.Frame] = []
      for part in [bytes[..<cut], bytes[cut...]] {
        reader.feed(part)
        while let frame = reader.next() { frames.append(frame) }
      }
      #expect(frames == [.message(Array("{\"a\":1}".utf8)), .message(Array("{\"b\":\"ü\"}".utf8))])
    }
  }

  @Test func badHeadersAreSaidAndTheNextMessageStillComes() {
    var reader = FrameReader()
    reader.feed(Array("Content-Type: x\r\n\r\nnonsense\r\n\r\n".utf8) + FrameReader.frame("{}"))
    var frames: [FrameReader.Frame] = []
    while let frame = reader.next() { frames.append(frame) }
    #expect(frames.first == .malformed("a message without a Content-Length header"))
    #expect(frames.last == .message(Array("{}".utf8)))
  }

  /// Junk before a message, and a Content-Length that is no length followed by its body, cost
  /// only themselves: the messages after them come.
  @Test func afterJunkTheNextMessageComes() {
    for junk in [
      String(repeating: "X", count: 9000), "xyz\r\n", "garbage", "\r\n",
      "Content-Length: 99999999999999999999\r\n\r\n{\"a\":1}",
      "Content-Length: -5\r\n\r\n[1,2]",
    ] {
      var reader = FrameReader()
      reader.feed(Array(junk.utf8) + FrameReader.frame("{}") + FrameReader.frame("[]"))
      var frames: [FrameReader.Frame] = []
      while let frame = reader.next() { frames.append(frame) }
      #expect(frames.filter { if case .malformed = $0 { true } else { false } }.count == 1, "\(frames)")
      #expect(frames.suffix(2) == [.message(Array("{}".utf8)), .message(Array("[]".utf8))], "\(frames)")
    }
  }

  /// Many small messages in one read are each taken in their own time (the reader drops what it
  /// took now and then, not at each message).
  @Test func manySmallMessagesInOneReadAllCome() {
    var reader = FrameReader()
    var bytes: [UInt8] = []
    for index in 0..<20000 { bytes += FrameReader.frame("[\(index)]") }
    reader.feed(bytes)
    var count = 0
    while case .message = reader.next() { count += 1 }
    #expect(count == 20000)
  }

  /// A message over the limit is skipped as it comes: the reader never holds it.
  @Test func anOversizedMessageIsSkippedWithoutKeepingIt() {
    var reader = FrameReader()
    reader.feed(Array("Content-Length: \(FrameReader.maximumContent + 1)\r\n\r\n".utf8))
    #expect(reader.next() == .malformed("a message of 33554433 bytes: at most 33554432 are read"))
    let chunk = [UInt8](repeating: 0x7B, count: 1024 * 1024)
    for _ in 0..<32 {
      reader.feed(chunk)
      #expect(reader.next() == nil)
    }
    reader.feed([0x7B] + FrameReader.frame("{}"))
    #expect(reader.next() == .message(Array("{}".utf8)))
  }

  @Test func aHeaderWithoutEndIsCutAtItsLimit() {
    var reader = FrameReader()
    reader.feed([UInt8](repeating: 0x41, count: FrameReader.maximumHeader + 10))
    if case .malformed = reader.next() {} else { Issue.record("no complaint about the header") }
    // What is left of it is skipped up to the next message's header, which comes whole.
    reader.feed(Array("AAAA\r\n\r\n".utf8) + FrameReader.frame("[]"))
    var last: FrameReader.Frame?
    while let frame = reader.next() { last = frame }
    #expect(last == .message(Array("[]".utf8)))
  }
}
