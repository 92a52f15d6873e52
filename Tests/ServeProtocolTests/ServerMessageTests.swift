import Foundation
import ServeProtocol
import Testing

/// The answers' wire format, as the page reads it: every message and every present event is the
/// object the hand-written writer before `Encodable` wrote (its text below), key order aside.
struct ServerMessageTests {
  static func object(_ text: String) throws -> NSDictionary {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
  }

  static var presentation: Presentation {
    var presentation = Presentation()
    presentation.apply(.input(prompt: "pipesh[0]> ", text: "timer 1"))
    presentation.apply(.output("0\n"))
    presentation.apply(.top("1 job"))
    presentation.apply(.picture(title: "draw x", svg: "<svg/>"))
    presentation.end()
    return presentation
  }

  @Test(arguments: [
    (
      ServerMessage.result(id: 4, status: 1, html: "<pre>a/b</pre>", milliseconds: 12),
      #"{"type":"result","id":4,"status":1,"html":"<pre>a/b</pre>","ms":12}"#
    ),
    (
      .export(id: 1, swift: "import AsyncAlgorithms", test: "@Test func t() {}", message: ""),
      #"{"type":"export","id":1,"swift":"import AsyncAlgorithms","test":"@Test func t() {}","message":""}"#
    ),
    (
      .export(id: 2, swift: "", test: nil, message: "no test"),
      #"{"type":"export","id":2,"swift":"","test":null,"message":"no test"}"#
    ),
    (.error("nothing was run"), #"{"type":"error","message":"nothing was run"}"#),
    (
      .present(.state(Presentation())),
      #"{"type":"present","event":"state","transcript":[],"top":null,"picture":null,"ended":false}"#
    ),
    (
      .present(.state(presentation)),
      #"{"type":"present","event":"state","transcript":[{"kind":"input","prompt":"pipesh[0]> ","text":"timer 1"},"#
        + #"{"kind":"output","text":"0\n"}],"top":"1 job","picture":{"title":"draw x","svg":"<svg/>"},"ended":true}"#
    ),
    (
      .present(.fed(.input(prompt: "> ", text: "x"))),
      #"{"type":"present","event":"input","prompt":"> ","text":"x"}"#
    ),
    (.present(.fed(.output("0\n"))), #"{"type":"present","event":"output","text":"0\n"}"#),
    (.present(.fed(.top("no job"))), #"{"type":"present","event":"top","text":"no job"}"#),
    (
      .present(.fed(.picture(title: "t", svg: "<svg/>"))),
      #"{"type":"present","event":"picture","title":"t","svg":"<svg/>"}"#
    ),
    (.present(.ended), #"{"type":"present","event":"ended"}"#),
  ])
  func eachMessageIsTheObjectThePageReads(_ message: ServerMessage, _ written: String) throws {
    #expect(try Self.object(message.json) == Self.object(written))
  }

  /// Slashes are written as they are (`</pre>`, not `<\/pre>`), and the frame is one line.
  @Test func framesAreCompact() {
    let frame = ServerMessage.result(id: 1, status: 0, html: "<pre>\n</pre>", milliseconds: 0).json
    #expect(frame.contains("</pre>"))
    #expect(!frame.contains("\n"))
  }
}
