import Foundation
import HummingbirdWebSocket
import Markup
import ServeProtocol

/// One page's session (one WebSocket connection): its runs and exports. A new `run` kills the
/// session's previous run; nothing a session does reaches another one.
actor Session {
  let pipesh: String
  let outbound: WebSocketOutboundWriter
  /// The run going on now, if any: cancelled (its process killed) by the next `run`.
  private var currentRun: Task<Void, Never>?
  private var currentExport: Task<Void, Never>?

  init(pipesh: String, outbound: WebSocketOutboundWriter) {
    self.pipesh = pipesh
    self.outbound = outbound
  }

  /// Acts on one text message from the page.
  func received(_ text: String) async {
    switch ClientMessage.decode(text.utf8) {
    case .failure(let error): await send(.error(error.description))
    case .success(.run(let id, let script)):
      currentRun?.cancel()
      let previous = currentRun
      currentRun = Task {
        await previous?.value
        await self.run(id: id, script: script)
      }
    case .success(.export(let id, let script)):
      currentExport?.cancel()
      currentExport = Task { await self.export(id: id, script: script) }
    }
  }

  /// A frame the protocol has no use for (binary).
  func refused(_ error: ProtocolError) async {
    await send(.error(error.description))
  }

  /// The connection has closed: kills what still runs.
  func close() async {
    currentRun?.cancel()
    currentExport?.cancel()
    await currentRun?.value
    await currentExport?.value
  }

  private func run(id: Int, script: String) async {
    let run = PipeshRun(pipesh: pipesh, arguments: ["--virtual-time", "--page"])
    do {
      let outcome = try await run.run(script)
      await send(Self.result(id: id, outcome))
    } catch is CancellationError {
      // A newer edit replaced this run: its result would be stale.
    } catch {
      await send(.error("could not run pipesh (\(pipesh)): \(error)"))
    }
  }

  static func result(id: Int, _ outcome: PipeshRun.Outcome) -> ServerMessage {
    var html = outcome.stdout
    var status = Int(outcome.status)
    switch outcome.stop {
    case .timedOut?:
      status = 1
      html = Self.note(
        "the run took over \(PipeshRun.wallClockLimit.components.seconds) s of real time and was stopped: "
          + "shorten the pipeline or its work")
    case .tooMuchOutput?:
      status = 1
      html = Self.note("the run printed over \(PipeshRun.outputLimit >> 20) MB and was stopped: print less")
    case nil:
      if !outcome.stderr.isEmpty { html += "<pre class=\"stderr\">\(Markup.escaped(outcome.stderr, .html))</pre>" }
    }
    return .result(id: id, status: status, html: html, milliseconds: outcome.milliseconds)
  }

  private func export(id: Int, script: String) async {
    do {
      let swift = try await PipeshRun(pipesh: pipesh, arguments: ["--emit-swift"]).run(script)
      let test = try await PipeshRun(pipesh: pipesh, arguments: ["--emit-test"]).run(script)
      var messages: [String] = []
      let swiftWhy = swift.status != 0 || swift.stop != nil ? Self.firstLines(swift.stderr) : nil
      // pipesh writes a file with no @Test (and a comment saying why) for a script without expectations.
      let hasTest = test.status == 0 && test.stop == nil && test.stdout.contains("@Test")
      let testWhy =
        hasTest
        ? nil
        : test.stdout.split(separator: "\n").last { $0.hasPrefix("// No expectation") }.map {
          String($0.dropFirst(3)) + " (write expect P == \"DIAGRAM\" or expect P prints V)"
        } ?? Self.firstLines(test.stderr)
      if let swiftWhy, swiftWhy == testWhy {
        // The script's own errors stop both: said once.
        messages.append("no Swift export and no exported test: " + swiftWhy)
      } else {
        if let swiftWhy { messages.append("no Swift export: " + swiftWhy) }
        if let testWhy { messages.append("no exported test: " + testWhy) }
      }
      await send(
        .export(
          id: id, swift: swift.status == 0 ? swift.stdout : "", test: hasTest ? test.stdout : nil,
          message: messages.joined(separator: "\n")))
    } catch is CancellationError {
    } catch {
      await send(.error("could not run pipesh (\(pipesh)): \(error)"))
    }
  }

  static func firstLines(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(12)
    let joined = lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    return joined.isEmpty ? "pipesh said nothing" : joined
  }

  static func note(_ text: String) -> String {
    "<pre class=\"output\"><span class=\"error\">pipesh serve: \(Markup.escaped(text, .html))</span></pre>"
  }

  func send(_ message: ServerMessage) async {
    try? await outbound.write(.text(message.json))
  }
}
