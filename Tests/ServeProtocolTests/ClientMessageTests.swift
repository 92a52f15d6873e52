import Foundation
import ServeProtocol
import Testing

/// What the server makes of a page's messages: a run or an export, or an error that says what to
/// send instead.
struct ClientMessageTests {
  static func decode(_ text: String) -> Result<ClientMessage, ProtocolError> {
    ClientMessage.decode(Array(text.utf8))
  }

  @Test func aRunAndAnExportAreRead() {
    #expect(
      Self.decode(#"{"type":"run","id":3,"script":"timer 1 | take 2"}"#)
        == .success(.run(id: 3, script: "timer 1 | take 2")))
    #expect(Self.decode(#"{"script":"é\n","id":0,"type":"export"}"#) == .success(.export(id: 0, script: "é\n")))
  }

  @Test(arguments: [
    ("", ProtocolError.malformed),
    ("{", .malformed),
    ("[1,2]", .notAnObject),
    ("\"run\"", .notAnObject),
    (#"{"id":1,"script":""}"#, .missingField("type", "a string")),
    (#"{"type":7}"#, .missingField("type", "a string")),
    (#"{"type":"run","id":"1","script":""}"#, .missingField("id", "a whole number from 0")),
    (#"{"type":"run","id":-1,"script":""}"#, .missingField("id", "a whole number from 0")),
    (#"{"type":"run","id":1.5,"script":""}"#, .missingField("id", "a whole number from 0")),
    (#"{"type":"run","id":1e300,"script":""}"#, .missingField("id", "a whole number from 0")),
    (#"{"type":"run","id":true,"script":""}"#, .missingField("id", "a whole number from 0")),
    (#"{"type":"run","id":1,"script":null}"#, .missingField("script", "a string")),
    (#"{"type":"delete","id":1}"#, .unknownType("delete")),
  ])
  func malformedMessagesAreTold(_ text: String, _ error: ProtocolError) {
    #expect(Self.decode(text) == .failure(error))
  }

  @Test func aMessageOverOneMegabyteIsRefusedUnread() {
    let script = String(repeating: "x", count: ClientMessage.sizeLimit)
    let text = #"{"type":"run","id":1,"script":"\#(script)"}"#
    #expect(Self.decode(text) == .failure(.tooLarge(bytes: text.utf8.count)))
    #expect(ProtocolError.tooLarge(bytes: text.utf8.count).description.contains("over the limit of 1048576 bytes"))
  }

  @Test func deeplyNestedJSONIsAnErrorNotACrash() {
    let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(Self.decode(nested) == .failure(.malformed) || Self.decode(nested) == .failure(.notAnObject))
  }

  @Test func answersAreJSONThatReadsBack() throws {
    let html = "<pre class=\"output\">a\u{1}\u{2028}\t\"\\</pre>"
    let frame = ServerMessage.result(id: 4, status: 1, html: html, milliseconds: 12).json
    let object = try #require(try JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any])
    #expect(object["html"] as? String == html)
    #expect(object["status"] as? Int == 1)
    let export = ServerMessage.export(id: 1, swift: "import AsyncAlgorithms", test: nil, message: "no test").json
    #expect(export.contains(#""test":null"#))
  }
}

/// The presented session's state: the transcript bounded, the latest top and picture kept.
struct PresentationTests {
  @Test func feedLinesAreReadAndUnknownOnesIgnored() {
    #expect(
      FeedEvent.decode(Array(#"{"type":"input","prompt":"pipesh[0]> ","text":"timer 1"}"#.utf8))
        == .input(prompt: "pipesh[0]> ", text: "timer 1"))
    #expect(
      FeedEvent.decode(Array(#"{"type":"picture","title":"draw x","svg":"<svg/>"}"#.utf8))
        == .picture(title: "draw x", svg: "<svg/>"))
    #expect(FeedEvent.decode(Array(#"{"type":"bell"}"#.utf8)) == nil)
    #expect(FeedEvent.decode(Array(#"{"type":"output"}"#.utf8)) == nil)
    #expect(FeedEvent.decode(Array("not json".utf8)) == nil)
  }

  /// pipesh feeds each line it writes without its newline: the transcript shows them as lines.
  @Test func outputEndsItsLine() {
    #expect(FeedEvent.output("0").endingItsLine == .output("0\n"))
    #expect(FeedEvent.output("0\n1\n").endingItsLine == .output("0\n1\n"))
    #expect(FeedEvent.input(prompt: "> ", text: "x").endingItsLine == .input(prompt: "> ", text: "x"))
  }

  @Test func theTranscriptKeepsItsLastBytes() {
    var presentation = Presentation(transcriptLimit: 100)
    for index in 0..<50 { presentation.apply(.output("line \(index)\n")) }
    presentation.apply(.top("1 job"))
    presentation.apply(.top("no job"))
    let kept = presentation.transcript.map { segment -> String in
      if case .output(let text) = segment { return text }
      return ""
    }.joined()
    #expect(kept.utf8.count <= 100)
    #expect(kept.hasSuffix("line 48\nline 49\n"))
    #expect(!kept.contains("line 1\n"))
    #expect(presentation.top == "no job")
  }
}

/// The fuzzer's seeds (and any input that once broke the decoder, added to
/// `Tests/ServeFuzzCorpus/`) read as messages and as feed lines without trapping.
struct ServeFuzzCorpusTests {
  @Test func theCorpusDecodes() throws {
    let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("ServeFuzzCorpus")
    let files = try FileManager.default.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil)
    #expect(files.count >= 4)
    var decoded = 0
    for file in files {
      let bytes = [UInt8](try Data(contentsOf: file))
      if case .success = ClientMessage.decode(bytes) { decoded += 1 }
      var presentation = Presentation(transcriptLimit: 64)
      for line in bytes.split(separator: UInt8(ascii: "\n")) {
        if let event = FeedEvent.decode(Array(line)) { presentation.apply(event) }
      }
    }
    #expect(decoded == 2)
  }
}
