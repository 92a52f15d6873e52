import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every wait of a script stops on Ctrl-C (SIGINT), with status 130: a foreground job, the wait for
/// background jobs at the end of the script, and `load` of a FIFO nobody writes to. Each script
/// prints `ready` first, so the signal comes once it runs.
@Suite("Ctrl-C stops every wait")
struct InterruptTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let arguments: [String]
    let script: String
    var testDescription: String { (arguments + [script]).joined(separator: " ") }
  }

  static let cases: [Case] = [["--virtual-time"], []].flatMap { arguments in
    [
      "timer 1 | flatMapLatest { never }",
      "merge(from 3, from 4) | flatMapLatest { timer 1 | flatMapLatest { never } }",
      "timer 1 | drain &",
      "timer 1 | flatMapLatest { timer 0.5 } | drain &",
    ].map { Case(arguments: arguments, script: "from \"ready\"\n" + $0) }
  }

  @Test(arguments: cases)
  func sigintEndsTheScript(_ test: Case) throws {
    let result = try Self.interrupted(test.arguments + ["-c", test.script])
    #expect(!result.timedOut, "did not end after SIGINT")
    #expect(result.status == 130, "\(result.stderr)")
  }

  /// `load` of a FIFO with no writer waits for one without blocking the shell: Ctrl-C ends it.
  @Test func loadOfAFifoWithoutWriterStops() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-fifo-\(UUID())").path
    #expect(mkfifo(path, 0o600) == 0)
    defer { unlink(path) }
    for script in ["load \"\(path)\"", "lines \"\(path)\" | print"] {
      let result = try Self.interrupted(["-c", "from \"ready\"\n" + script])
      #expect(!result.timedOut, "\(script) did not end after SIGINT")
      #expect(result.status == 130, "\(script): \(result.stderr)")
    }
  }

  /// Runs pipesh, sends SIGINT once it printed `ready`, and waits for its end (killed after 20 s).
  static func interrupted(_ arguments: [String]) throws -> Pipesh.Result {
    try Pipesh.run(arguments, limit: 20, interruptWhen: "ready\n")
  }
}
