import Foundation
import Testing

/// The server's suites, one at a time: each starts a server and a browser, and the machine is
/// shared.
@Suite(
  .serialized,
  .disabled(
    if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil,
    "the server and the browser would run under ThreadSanitizer; not tried yet"))
enum Serve {}

/// `pipesh serve`'s page in a real browser (headless Chromium over the DevTools protocol), and its
/// server from raw sockets: what a person typing, dragging, sharing and watching would see, read
/// back from the DOM. Every wait is for a condition in the page, bounded; none is a fixed sleep.
extension Serve {
  @Suite("pipesh serve in a browser", .serialized, .timeLimit(.minutes(3)))
  struct ServeTests {
    /// The page loads its script and style from itself: the only requests go to the server.
    @Test func thePageFetchesNothingFromTheNetwork() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url, network: true)
      try tab.waitFor("document.getElementById('result').dataset.run")
      let urls = browser.events("Network.requestWillBeSent", session: tab.session).compactMap {
        ($0["params"] as? [String: Any]).flatMap { ($0["request"] as? [String: Any])?["url"] as? String }
      }
      #expect(urls.contains(server.url))
      for url in urls {
        #expect(
          url.hasPrefix("http://127.0.0.1:\(server.port)/") || url.hasPrefix("ws://127.0.0.1:\(server.port)/"), "\(url)"
        )
      }
      let outside = try tab.evaluate(
        "[...document.querySelectorAll('script[src], link[href], img[src], iframe')].length")
      #expect(outside as? Int == 0)
      #expect(
        try tab.evaluate("document.getElementById('editor').value") as? String
          == #"marble "-a-b-c---d-|" | debounce 2 | map { $0 }"#)
    }

    /// Typing a pipeline shows its picture: a lane per stage, drawn by the real operators, and the
    /// status says ok. (Needs pipesh's `--page`, which draws a pipeline statement.)
    @Test func typingAPipelineShowsItsLanes() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url)
      try tab.waitFor("document.getElementById('result').dataset.run")
      try tab.type(#"marble "a-b-c|" | map { $0 + "!" } | filter { $0 != "b!" }"#)
      let lanes = try tab.waitFor(
        """
        showsEditorText() && document.getElementById('result').dataset.status === '0'
          && [...document.querySelectorAll('#result svg g.lane')].map(lane => lane.querySelectorAll('g.marble').length).join(',')
        """)
      #expect(lanes as? String == "3,3,2")
      #expect(try tab.evaluate("document.getElementById('status').textContent.startsWith('ok')") as? Bool == true)
      #expect(try tab.evaluate("location.hash.startsWith('#s=')") as? Bool == true)
    }

    /// A typo shows pipesh's own diagnostic: where, the caret, and the near name.
    @Test func aTypoShowsTheDiagnosticWithItsCaret() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url)
      try tab.waitFor("document.getElementById('result').dataset.run")
      try tab.type("timer 1 | mapp { $0 } | take 2")
      let text = try tab.waitFor(
        "showsEditorText() && document.getElementById('result').dataset.status === '2' && document.getElementById('result').textContent"
      )
      let shown = try #require(text as? String)
      #expect(shown.contains("1:11: error: unknown operator 'mapp'"))
      #expect(shown.contains("          ^~~~"))
      #expect(shown.contains("did you mean 'map'?"))
      #expect(try tab.evaluate("document.getElementById('status').textContent.startsWith('failed')") as? Bool == true)
    }

    /// A script over the 1 MB limit is refused: the status says so (not `running…` for good), and
    /// the next run's result clears the refusal.
    @Test func aScriptOverTheLimitIsRefusedAndTheNextRunClearsIt() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url)
      try tab.waitFor("document.getElementById('result').dataset.status === '0'")
      try tab.evaluate(
        """
        (() => { const editor = document.getElementById('editor');
          editor.value = '# ' + 'x'.repeat(1100000) + '\\nmarble "ab|" | print';
          editor.dispatchEvent(new Event('input')); return true; })()
        """)
      try tab.waitFor(
        """
        document.getElementById('status').textContent.startsWith('refused')
          && document.getElementById('message').textContent.includes('over the limit of 1048576 bytes')
        """)
      try tab.type(#"marble "ab|" | print"#)
      try tab.waitFor(
        "showsEditorText() && document.getElementById('status').textContent.startsWith('ok')")
      #expect(try tab.evaluate("document.getElementById('message').hidden") as? Bool == true)
    }

    /// Copy Swift on a script with an error: the diagnostic is shown once, not once for the
    /// export and again for the test.
    @Test func copySwiftOnAnErrorShowsTheDiagnosticOnce() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url)
      try tab.waitFor("document.getElementById('result').dataset.run")
      try tab.type("timer 1 | mapp { $0 } | take 2")
      try tab.waitFor("showsEditorText() && document.getElementById('result').dataset.status === '2'")
      try tab.evaluate("document.getElementById('copy-swift').click(); true")
      let message = try #require(
        try tab.waitFor(
          "document.getElementById('message').textContent.includes('mapp') && document.getElementById('message').textContent"
        ) as? String)
      #expect(message.components(separatedBy: "unknown operator 'mapp'").count == 2, "\(message)")
      #expect(message.hasPrefix("no Swift export and no exported test: "), "\(message)")
    }

    /// A share link opened in another tab shows the same script and the same picture.
    @Test func aShareLinkShowsTheSamePicture() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url)
      try tab.waitFor("document.getElementById('result').dataset.run")
      let script = "draw merge(marble \"a-b-c|\", marble \"-é--x|\") | throttle 2\nmarble \"ab|\" | print"
      try tab.type(script)
      try tab.waitFor(
        "showsEditorText() && document.getElementById('result').dataset.status === '0' && document.querySelector('#result svg')"
      )
      let link = try #require(try tab.evaluate("location.href") as? String)
      #expect(link.hasPrefix(server.url + "#s="))
      let picture = try tab.evaluate("document.getElementById('result').innerHTML") as? String
      let other = try browser.open(link)
      try other.waitFor("showsEditorText() && document.getElementById('result').dataset.status === '0'")
      #expect(try other.evaluate("document.getElementById('editor').value") as? String == script)
      #expect(try other.evaluate("document.getElementById('result').innerHTML") as? String == picture)
    }

    /// explore on the page: its outcomes side by side, each a picture with a button that adds its
    /// `draw P order: TOKEN` to the script and runs it, drawing that outcome's order.
    @Test func exploresOutcomesSitSideBySideAndEachDrawsItsOrder() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url)
      try tab.waitFor("document.getElementById('result').dataset.run")
      try tab.type("explore merge(marble \"a|\", marble \"b|\")")
      try tab.waitFor(
        "showsEditorText() && document.getElementById('result').dataset.status === '0' && document.querySelector('#result .outcome svg')"
      )
      #expect(try tab.evaluate("document.querySelectorAll('#result .outcome svg').length") as? Int == 2)
      // Side by side: the second outcome's picture starts to the right of the first's, at its height.
      #expect(
        try tab.evaluate(
          "(() => { const [a, b] = [...document.querySelectorAll('#result .outcome')].map(o => o.getBoundingClientRect()); "
            + "return b.left >= a.right && b.top === a.top; })()") as? Bool == true)
      let statement = try #require(
        try tab.evaluate("document.querySelectorAll('#result button.replay')[1].dataset.statement") as? String)
      #expect(statement.hasPrefix("draw merge(marble \"a|\", marble \"b|\") order: o"), "\(statement)")
      try tab.evaluate("document.querySelectorAll('#result button.replay')[1].click(); true")
      try tab.waitFor(
        "document.getElementById('editor').value.endsWith('\\n' + \(Self.javaScriptString(statement)) + '\\n') "
          + "&& document.getElementById('result').dataset.status === '0' && document.querySelectorAll('#result section').length === 2"
      )
      // The draw of outcome 2's order: merge's lane has b before a, in its text below the picture.
      let drawn = try #require(
        try tab.evaluate("document.querySelectorAll('#result section')[1].querySelector('pre.text').textContent")
          as? String)
      #expect(drawn.contains("[ba] |"), "\(drawn)")
    }

    /// A string as a JavaScript literal.
    static func javaScriptString(_ text: String) -> String {
      let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data()
      return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }

    /// Ctrl-C with a page open: the server closes the page's connection (going away) and is gone
    /// at once, with status 130.
    @Test func ctrlCWithAPageOpenStopsAtOnce() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url)
      try tab.waitFor("showsEditorText() && document.getElementById('result').dataset.run")
      kill(server.process.processIdentifier, SIGINT)
      #expect(server.waitForExit(timeout: 2.5) == 130)
      try tab.waitFor("document.getElementById('status').textContent.startsWith('not connected')")
    }

    /// Dragging the marble `b` of an input lane two ticks to the right rewrites the literal in the
    /// editor and redraws the lanes below from the real operator. (Needs pipesh's `--page` with its
    /// marble-input annotations.)
    @Test func draggingAMarbleRewritesTheScriptAndRedraws() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url)
      try tab.waitFor("document.getElementById('result').dataset.run")
      try tab.type(#"marble "a-b---c|" | debounce 2"#)
      try tab.waitFor(
        "showsEditorText() && document.querySelector('#result g.marble-input g.marble[data-value=\"b\"]')"
      )
      let before = try #require(try tab.evaluate(Self.debouncedTicks) as? String)
      let point = try #require(
        try tab.evaluate(
          """
          (() => {
            const lane = document.querySelector('#result g.marble-input');
            const b = lane.querySelector('g.marble[data-value="b"]').getBoundingClientRect();
            const width = Number(lane.dataset.tickWidth) * lane.getScreenCTM().a;
            return [b.left + b.width / 2, b.top + b.height / 2, width];
          })()
          """) as? [Double])
      let (x, y, width) = (point[0], point[1], point[2])
      try tab.mouse("mouseMoved", x: x, y: y)
      try tab.mouse("mousePressed", x: x, y: y)
      try tab.mouse("mouseMoved", x: x + width, y: y)
      try tab.mouse("mouseMoved", x: x + 2 * width, y: y)
      try tab.mouse("mouseReleased", x: x + 2 * width, y: y)
      try tab.waitFor(
        "document.getElementById('editor').value === 'marble \"a---b-c|\" | debounce 2' && showsEditorText() && document.getElementById('result').dataset.status === '0'"
      )
      let after = try #require(try tab.evaluate(Self.debouncedTicks) as? String)
      #expect(before != after, "the debounced lane did not change: \(before)")
      // A click on the end mark turns the finish into a failure: the run fails (status 1).
      let end = try #require(
        try tab.evaluate(
          """
          (() => { const end = document.querySelector('#result g.marble-input g.marble-end').getBoundingClientRect();
            return [end.left + end.width / 2, end.top + end.height / 2]; })()
          """) as? [Double])
      try tab.mouse("mouseMoved", x: end[0], y: end[1])
      try tab.mouse("mousePressed", x: end[0], y: end[1])
      try tab.mouse("mouseReleased", x: end[0], y: end[1])
      try tab.waitFor(
        "document.getElementById('editor').value === 'marble \"a---b-c^\" | debounce 2' && showsEditorText() && document.getElementById('result').dataset.status === '1'"
      )
      #expect(
        try tab.evaluate("location.hash") as? String == "#s=" + Self.base64url(#"marble "a---b-c^" | debounce 2"#))
    }

    /// A marble drawn later than its tick (a flatMap below slows the demand, so `b` of tick 3 is
    /// drawn at tick 4): a press with a nudge of a few pixels changes nothing, and a drag of one
    /// tick moves it one tick from its own tick, not from where it is drawn.
    @Test func draggingAMarbleDrawnLateMovesItFromItsOwnTick() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url)
      try tab.waitFor("document.getElementById('result').dataset.run")
      let script = #"marble "-a-b|" | flatMap { marble "-x|" }"#
      try tab.type(script)
      try tab.waitFor(
        "showsEditorText() && document.querySelector('#result g.marble-input g.marble[data-value=\"b\"]')")
      let point = try #require(
        try tab.evaluate(
          """
          (() => {
            const lane = document.querySelector('#result g.marble-input');
            const b = lane.querySelector('g.marble[data-value="b"]');
            const box = b.getBoundingClientRect();
            const width = Number(lane.dataset.tickWidth) * lane.getScreenCTM().a;
            const drawnAt = (box.left + box.width / 2 - lane.getScreenCTM().e) / lane.getScreenCTM().a;
            const drawnTick = Math.round((drawnAt - Number(lane.dataset.x0)) / Number(lane.dataset.tickWidth));
            return [box.left + box.width / 2, box.top + box.height / 2, width, Number(b.dataset.tick), drawnTick];
          })()
          """) as? [Double])
      let (x, y, width) = (point[0], point[1], point[2])
      // The premise: b's tick in the literal is 3, and it is drawn at tick 4.
      #expect(point[3] == 3)
      #expect(point[4] == 4)
      try tab.mouse("mouseMoved", x: x, y: y)
      try tab.mouse("mousePressed", x: x, y: y)
      try tab.mouse("mouseMoved", x: x + 3, y: y)
      try tab.mouse("mouseReleased", x: x + 3, y: y)
      #expect(try tab.evaluate("document.getElementById('editor').value") as? String == script)
      #expect(try tab.evaluate("showsEditorText()") as? Bool == true)
      try tab.mouse("mouseMoved", x: x, y: y)
      try tab.mouse("mousePressed", x: x, y: y)
      try tab.mouse("mouseMoved", x: x + width, y: y)
      try tab.mouse("mouseReleased", x: x + width, y: y)
      try tab.waitFor(
        """
        document.getElementById('editor').value === 'marble "-a--b|" | flatMap { marble "-x|" }'
          && showsEditorText() && document.getElementById('result').dataset.status === '0'
        """)
    }

    /// A click on an empty tick of an input lane adds the next letter there; a double-click on a
    /// marble removes it; each edit rewrites the literal and redraws the lanes below.
    @Test func clickingALaneAddsAValueAndADoubleClickRemovesOne() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url)
      try tab.waitFor("document.getElementById('result').dataset.run")
      try tab.type(#"marble "a-b---|" | map { $0 + "!" }"#)
      try tab.waitFor(
        "showsEditorText() && document.querySelector('#result g.marble-input g.marble[data-value=\"b\"]')")
      // The middle of tick 4, on the lane's line.
      let point = try #require(
        try tab.evaluate(
          """
          (() => {
            const lane = document.querySelector('#result g.marble-input');
            const b = lane.querySelector('g.marble[data-value="b"]').getBoundingClientRect();
            const width = Number(lane.dataset.tickWidth) * lane.getScreenCTM().a;
            return [b.left + b.width / 2 + 2 * width, b.top + b.height / 2];
          })()
          """) as? [Double])
      try tab.mouse("mouseMoved", x: point[0], y: point[1])
      try tab.mouse("mousePressed", x: point[0], y: point[1])
      try tab.mouse("mouseReleased", x: point[0], y: point[1])
      try tab.waitFor(
        "document.getElementById('editor').value === 'marble \"a-b-c-|\" | map { $0 + \"!\" }' && showsEditorText() && document.querySelectorAll('#result svg g.lane')[1].querySelectorAll('g.marble').length === 3"
      )
      let a = try #require(
        try tab.evaluate(
          """
          (() => { const a = document.querySelector('#result g.marble-input g.marble[data-value="a"]').getBoundingClientRect();
            return [a.left + a.width / 2, a.top + a.height / 2]; })()
          """) as? [Double])
      try tab.mouse("mouseMoved", x: a[0], y: a[1])
      for count in 1...2 {
        try tab.mouse("mousePressed", x: a[0], y: a[1], clickCount: count)
        try tab.mouse("mouseReleased", x: a[0], y: a[1], clickCount: count)
      }
      try tab.waitFor(
        "document.getElementById('editor').value === 'marble \"--b-c-|\" | map { $0 + \"!\" }' && showsEditorText() && document.querySelectorAll('#result svg g.lane')[1].querySelectorAll('g.marble').length === 2"
      )
    }

    /// A one-character value that is not a letter of a to z (é) is written back as itself, as
    /// pipesh reads it, not as `'é'`.
    @Test func anEditWritesAOneCharacterValueAsItself() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url)
      try tab.waitFor("document.getElementById('result').dataset.run")
      try tab.type(#"marble "é-b-7-|" | map { $0 + "!" }"#)
      try tab.waitFor(
        "showsEditorText() && document.querySelector('#result g.marble-input g.marble[data-value=\"b\"]')")
      let point = try #require(
        try tab.evaluate(
          """
          (() => {
            const lane = document.querySelector('#result g.marble-input');
            const b = lane.querySelector('g.marble[data-value="b"]').getBoundingClientRect();
            const width = Number(lane.dataset.tickWidth) * lane.getScreenCTM().a;
            return [b.left + b.width / 2 + 3 * width, b.top + b.height / 2];
          })()
          """) as? [Double])
      try tab.mouse("mouseMoved", x: point[0], y: point[1])
      try tab.mouse("mousePressed", x: point[0], y: point[1])
      try tab.mouse("mouseReleased", x: point[0], y: point[1])
      try tab.waitFor(
        #"document.getElementById('editor').value === 'marble "é-b-7a|" | map { $0 + "!" }' && showsEditorText() && document.getElementById('result').dataset.status === '0'"#
      )
    }

    /// The ticks of the last lane's marbles, as drawn (their x positions).
    static let debouncedTicks = """
      [...document.querySelectorAll('#result svg g.lane')].at(-1).querySelectorAll('g.marble').length + ':' +
        [...[...document.querySelectorAll('#result svg g.lane')].at(-1).querySelectorAll('g.marble')].map(m => Math.round(m.getBoundingClientRect().left)).join(',')
      """

    static func base64url(_ text: String) -> String {
      Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
        of: "/", with: "_"
      ).replacingOccurrences(of: "=", with: "")
    }

    /// The Swift export: the button shows (and copies) the program; a script with no expectation
    /// has no exported test, and the page says why.
    @Test func copySwiftShowsTheExportAndCopyTestSaysWhenThereIsNone() throws {
      let server = try Server()
      let browser = try Browser()
      defer { browser.close() }
      let tab = try browser.open(server.url)
      try tab.waitFor("document.getElementById('result').dataset.run")
      try tab.evaluate("document.getElementById('copy-swift').click(); true")
      let swift = try tab.waitFor(
        "!document.getElementById('exported').hidden && document.getElementById('exported-text').textContent")
      #expect((swift as? String)?.contains("import AsyncAlgorithms") == true)
      try tab.evaluate("document.getElementById('copy-test').click(); true")
      let message = try tab.waitFor(
        "document.getElementById('exported').hidden && document.getElementById('message').textContent.includes('no exported test') && document.getElementById('message').textContent"
      )
      #expect((message as? String)?.isEmpty == false)
    }
  }
}

/// The server from raw sockets: what a misbehaving client sends gets an error, and other sessions
/// go on.
extension Serve {
  @Suite("pipesh serve's robustness", .serialized, .timeLimit(.minutes(3)))
  struct ServeRobustnessTests {
    static let run = #"{"type":"run","id":7,"script":"marble \"ab|\" | print"}"#

    @Test func malformedAndOversizeMessagesGetAnErrorAndOtherSessionsGoOn() throws {
      let server = try Server()
      let bad = try RawSocket(port: server.port)
      let good = try RawSocket(port: server.port)
      for (text, answer) in [
        ("{", "not JSON"), ("[]", "not a JSON object"), (#"{"type":"nuke"}"#, "unknown message type"),
        (#"{"type":"run","id":"x","script":""}"#, #""id" must be"#), (#"{"type":"run","id":1}"#, #""script" must be"#),
      ] {
        try bad.send(text)
        let reply = try bad.receiveJSON()
        #expect(reply["type"] as? String == "error")
        #expect((reply["message"] as? String)?.contains(answer) == true, "\(text): \(reply)")
      }
      try bad.send([0xff, 0xfe, 0x00], opcode: 2)
      #expect(try bad.receiveJSON()["message"] as? String == "binary frames are not understood: send JSON text")
      let huge = #"{"type":"run","id":1,"script":""# + String(repeating: "x", count: 1_200_000) + #""}"#
      try bad.send(huge)
      let refusal = try bad.receiveJSON()
      #expect((refusal["message"] as? String)?.contains("over the limit of 1048576 bytes (1 MB)") == true, "\(refusal)")
      // The connection that sent all that is still served, and so is the other one.
      for socket in [bad, good] {
        try socket.send(Self.run)
        let result = try socket.receiveJSON()
        #expect(result["type"] as? String == "result")
        #expect(result["id"] as? Int == 7)
      }
    }

    /// A frame or a message over the hard limit (8 MB) closes that connection with status 1009;
    /// the server goes on.
    @Test func aGiganticFrameClosesOnlyItsConnection() throws {
      let server = try Server()
      let giant = try RawSocket(port: server.port)
      try? giant.send([UInt8](repeating: 0x61, count: 9 << 20))
      let closing = try? giant.receive()
      if let closing { #expect(closing.opcode == 8, "expected a close frame, got \(closing.opcode)") }
      // Told by its head alone (a client still sending the rest may see the connection reset).
      let announced = try RawSocket(port: server.port)
      try announced.sendHead(length: 9 << 20)
      let close = try announced.receive()
      #expect(close.opcode == 8 && Array(close.payload.prefix(2)) == [0x03, 0xf1], "\(close)")
      // A message over 8 MB in frames each under it: closed with 1009 too, not 1000.
      let fragmented = try RawSocket(port: server.port)
      try fragmented.send([UInt8](repeating: 0x61, count: 5 << 20), final: false)
      try fragmented.send([UInt8](repeating: 0x61, count: 5 << 20), opcode: 0)
      let fragmentedClose = try fragmented.receive()
      #expect(
        fragmentedClose.opcode == 8 && Array(fragmentedClose.payload.prefix(2)) == [0x03, 0xf1], "\(fragmentedClose)")
      let other = try RawSocket(port: server.port)
      try other.send(Self.run)
      #expect(try other.receiveJSON()["type"] as? String == "result")
    }

    /// Only this server's own page may connect: a WebSocket upgrade from another site's page (its
    /// Origin) or for another name (a DNS rebinding: its Host) is refused, and so is the page for
    /// such a Host; a client without an Origin, or with this server's, is let in.
    @Test func anotherSitesPageCannotConnect() throws {
      let server = try Server()
      for headers in [["Origin: http://evil.example"], ["Origin: http://127.0.0.1:\(server.port + 1)"]] {
        let refused = try RawSocket(
          port: server.port,
          request: "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n" + headers[0] + "\r\n\r\n")
        #expect(refused.head.hasPrefix("HTTP/1.1 400"), "\(headers): \(refused.head)")
      }
      let rebound = try RawSocket(
        port: server.port,
        request:
          "GET /ws HTTP/1.1\r\nHost: evil.example:\(server.port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
      #expect(rebound.head.hasPrefix("HTTP/1.1 400"), "\(rebound.head)")
      let page = try RawSocket(
        port: server.port, request: "GET / HTTP/1.1\r\nHost: evil.example:\(server.port)\r\nConnection: close\r\n\r\n")
      #expect(page.head.hasPrefix("HTTP/1.1 403"), "\(page.head)")
      #expect(page.body().contains("refused: the Host 'evil.example:\(server.port)' is not this server's address"))
      let otherOrigin = try RawSocket(
        port: server.port,
        request:
          "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nOrigin: http://evil.example\r\nConnection: close\r\n\r\n"
      )
      #expect(otherOrigin.head.hasPrefix("HTTP/1.1 403"), "\(otherOrigin.head)")
      for origin in ["http://127.0.0.1:\(server.port)", "http://localhost:\(server.port)"] {
        let socket = try RawSocket(port: server.port, headers: ["Origin: " + origin])
        try socket.send(Self.run)
        #expect(try socket.receiveJSON()["type"] as? String == "result")
      }
      let own = try RawSocket(
        port: server.port, request: "GET / HTTP/1.1\r\nHost: localhost:\(server.port)\r\nConnection: close\r\n\r\n")
      #expect(own.head.hasPrefix("HTTP/1.1 200"), "\(own.head)")
    }

    /// A plain GET of /ws (no upgrade asked) is told it is a WebSocket (426), not given an empty 200.
    @Test func aPlainGetOfTheWebSocketIsUpgradeRequired() throws {
      let server = try Server()
      let plain = try RawSocket(
        port: server.port, request: "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n\r\n")
      #expect(plain.head.hasPrefix("HTTP/1.1 426"), "\(plain.head)")
      #expect(plain.body().contains("/ws is a WebSocket"))
    }

    /// `pipesh serve F.trace`: the page pipesh drew of the trace is served at /trace, to this
    /// server's own address only; the file pipesh gave it is gone once read. Without one, /trace is
    /// not found.
    @Test func aTracesDrawingIsServedAtTrace() throws {
      let page = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-trace-\(UUID()).html")
      try "<!DOCTYPE html><title>draw t.trace</title><svg></svg>".write(to: page, atomically: true, encoding: .utf8)
      let server = try Server(arguments: ["--trace-page", page.path, "--trace-name", "t.trace"])
      #expect(server.firstLines.last == "pipesh serve: t.trace drawn at \(server.url)trace")
      #expect(!FileManager.default.fileExists(atPath: page.path))
      func get(_ host: String, from port: Int) throws -> RawSocket {
        try RawSocket(port: port, request: "GET /trace HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n")
      }
      let own = try get("127.0.0.1:\(server.port)", from: server.port)
      #expect(own.head.hasPrefix("HTTP/1.1 200"), "\(own.head)")
      #expect(own.body().contains("<title>draw t.trace</title>"))
      let rebound = try get("evil.example:\(server.port)", from: server.port)
      #expect(rebound.head.hasPrefix("HTTP/1.1 403"), "\(rebound.head)")
      let plain = try Server()
      let none = try get("127.0.0.1:\(plain.port)", from: plain.port)
      #expect(none.head.hasPrefix("HTTP/1.1 404"), "\(none.head)")
    }

    /// A trace page that cannot be read is a usage error, said before anything is served.
    @Test func anUnreadableTracePageIsAUsageError() throws {
      let process = Process()
      process.executableURL = Server.serve
      process.arguments = ["--port", "0", "--pipesh", Server.pipesh.path, "--trace-page", "/nonexistent/page.html"]
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      try Spawning.lock.withLock { try process.run() }
      let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 2)
      #expect(said.hasPrefix("pipesh serve: cannot read the trace's page /nonexistent/page.html"), "\(said)")
    }

    /// Forty sessions asking at once are all answered, each with its own run's output (the server
    /// runs a few at a time and queues the rest).
    @Test func fortySessionsAtOnceEachGetTheirOwnResult() throws {
      let server = try Server()
      let sockets = try (0..<40).map { _ in try RawSocket(port: server.port) }
      for (index, socket) in sockets.enumerated() {
        try socket.send(
          #"{"type":"run","id":\#(index),"script":"marble \"a|\" | map { \"session\#(index)-\" + $0 } | print"}"#)
      }
      for (index, socket) in sockets.enumerated() {
        let result = try socket.receiveJSON()
        #expect(result["id"] as? Int == index)
        #expect(result["status"] as? Int == 0)
        #expect(
          (result["html"] as? String)?.contains("session\(index)-a\n") == true
            || (result["html"] as? String)?.contains("session\(index)-a<") == true)
        #expect((result["html"] as? String)?.contains("session\((index + 1) % 40)-") == false)
      }
    }

    /// A new run replaces the session's previous one: its result never comes.
    @Test func aNewRunCancelsThePreviousOne() throws {
      let server = try Server()
      let socket = try RawSocket(port: server.port)
      try socket.send(#"{"type":"run","id":1,"script":"range 1 1000000000 | count &"}"#)
      try socket.send(#"{"type":"run","id":2,"script":"marble \"a|\" | print"}"#)
      let first = try socket.receiveJSON()
      #expect(first["id"] as? Int == 2)
      try socket.send(#"{"type":"run","id":3,"script":"marble \"a|\" | print"}"#)
      #expect(try socket.receiveJSON()["id"] as? Int == 3)
    }

    /// A run past the wall-clock cap is stopped with a message (the cap shortened for the test).
    /// The run is a stand-in for pipesh that never ends: pipesh's `--page` stops a pipeline after
    /// 10000 events, so no short script keeps it busy for long.
    @Test func aRunPastTheCapIsStoppedWithAMessage() throws {
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-serve-test-\(getpid())")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let slow = directory.appendingPathComponent("pipesh")
      try Data("#!/bin/sh\nexec sleep 60\n".utf8).write(to: slow)
      try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: slow.path)
      let server = try Server(pipesh: slow, environment: ["PIPESH_SERVE_RUN_SECONDS": "1"])
      let socket = try RawSocket(port: server.port)
      try socket.send(#"{"type":"run","id":1,"script":"range 1 1000000000 | count &"}"#)
      let result = try socket.receiveJSON()
      #expect(result["status"] as? Int == 1)
      #expect((result["html"] as? String)?.contains("the run took over 1 s of real time and was stopped") == true)
    }

    @Test func aPortInUseIsStatusOneWithTheMessage() throws {
      let server = try Server()
      let second = Process()
      second.executableURL = Server.serve
      second.arguments = ["--port", String(server.port), "--pipesh", Server.pipesh.path]
      let errors = Pipe()
      second.standardError = errors
      second.standardOutput = Pipe()
      try second.run()
      let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      second.waitUntilExit()
      #expect(second.terminationStatus == 1)
      #expect(text == "pipesh serve: port \(server.port) is in use (try --port 0 for any free port)\n")
    }

    /// Ctrl-C stops the server with status 130 (as pipesh), SIGTERM with 0, even with a page
    /// connected and a run going.
    @Test(arguments: [(Int32(SIGINT), Int32(130)), (Int32(SIGTERM), Int32(0))])
    func aSignalStopsTheServer(_ signal: Int32, _ status: Int32) throws {
      let server = try Server()
      let socket = try RawSocket(port: server.port)
      try socket.send(#"{"type":"run","id":1,"script":"range 1 1000000000 | count &"}"#)
      kill(server.process.processIdentifier, signal)
      // This client never answers the close: the server gives it 3 s, then exits all the same.
      #expect(server.waitForExit() == status)
      _ = socket
    }
  }
}

/// Present mode: viewers watch the session fed on the server's standard input.
extension Serve {
  @Suite("pipesh serve --present", .serialized, .timeLimit(.minutes(3)))
  struct PresentTests {
    @Test func twoViewersSeeTheSessionAndItsEnd() throws {
      let server = try Server(present: true)
      #expect(server.firstLines.last == "pipesh serve: presenting this shell's session read-only")
      let browser = try Browser()
      defer { browser.close() }
      let first = try browser.open(server.url)
      try first.waitFor("document.getElementById('status').textContent === 'watching'")
      try Self.feed(server, #"{"type":"input","prompt":"pipesh[0]> ","text":"timer 1 | take 2 | print"}"#)
      try Self.feed(server, #"{"type":"output","text":"0"}"#)
      try Self.feed(server, #"{"type":"output","text":"1\n"}"#)
      try Self.feed(server, #"{"type":"bell","ring":true}"#)
      try Self.feed(server, "not json at all")
      try Self.feed(server, #"{"type":"top","text":"JOB  STATE\n1    running"}"#)
      try Self.feed(
        server,
        #"{"type":"picture","title":"draw timer 1 | take 2","svg":"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><g class=\"lane\"></g></svg>"}"#
      )
      let second = try browser.open(server.url)
      for viewer in [first, second] {
        let transcript = try viewer.waitFor(
          "document.getElementById('transcript').textContent.includes('1\\n') && document.querySelector('#picture svg g.lane') && document.getElementById('transcript').textContent"
        )
        #expect(transcript as? String == "pipesh[0]> timer 1 | take 2 | print\n0\n1\n")
        #expect(
          try viewer.evaluate("document.querySelector('#transcript .input').textContent") as? String
            == "timer 1 | take 2 | print")
        #expect(
          try viewer.evaluate("document.getElementById('top').textContent") as? String == "JOB  STATE\n1    running")
        #expect(
          try viewer.evaluate("document.getElementById('picture-title').textContent") as? String
            == "draw timer 1 | take 2")
        #expect(try viewer.evaluate("document.getElementById('editor').offsetParent === null") as? Bool == true)
      }
      // A top wider than its panel keeps its lines whole (its columns line up) and scrolls sideways.
      let row = "1    running  " + String(repeating: "merge(timer 1, timer 2) | ", count: 6)
      try Self.feed(server, #"{"type":"top","text":"JOB  STATE\n"# + row + #""}"#)
      let lines = try first.waitFor(
        """
        document.getElementById('top').textContent.includes('merge') && (() => {
          const range = document.createRange();
          range.selectNodeContents(document.getElementById('top'));
          return new Set([...range.getClientRects()].map(rect => Math.round(rect.top))).size;
        })()
        """)
      #expect(lines as? Int == 2)
      #expect(
        try first.evaluate("(top => top.scrollWidth > top.clientWidth)(document.getElementById('top'))") as? Bool
          == true)
      try server.feed.close()
      for viewer in [first, second] {
        try viewer.waitFor("document.getElementById('status').textContent === 'the presented shell has ended'")
      }
      #expect(server.waitForExit() == 0)
    }

    static func feed(_ server: Server, _ line: String) throws {
      try server.feed.write(contentsOf: Data((line + "\n").utf8))
    }
  }
}
