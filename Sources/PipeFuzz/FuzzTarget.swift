import Dispatch
import LanguageServer
import PipeExport
import PipeSema
import PipeSession
import PipeShell
import PipeSyntax
import TraceFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One input through everything pipesh does with text before running it: the continuation check
/// the shell makes on every line, the lexer, the parser, `pipesh fmt` (twice, which must agree), the checker, and the diagnostics' text;
/// a script that checks, through what `--emit-swift` (plain and not) and `--emit-test` make of it
/// and the passes of `--page` that need no run (its sandbox, its marble annotation); and as a
/// saved trace, through `replay`'s reader and its error's text; and as what an editor sends
/// `pipesh lsp`, through its framing and its JSON. Any trap here is a bug: user input
/// must only ever produce diagnostics.
func fuzzOne(_ bytes: UnsafeRawBufferPointer) {
  let text = String(decoding: bytes, as: UTF8.self)
  var reader = FrameReader()
  reader.feed(bytes)
  var frames: [FrameReader.Frame] = []
  while let frame = reader.next() {
    if case .message(let message) = frame { _ = JSON.parse(message)?.text }
    frames.append(frame)
  }
  // What starts as a framed message is a session: an initialized server takes each frame.
  if text.hasPrefix("Content-Length"), !frames.isEmpty {
    let done = DispatchSemaphore(value: 0)
    Task {
      let server = LanguageServer()
      _ = await server.handle(["jsonrpc": "2.0", "id": 0, "method": "initialize", "params": ["capabilities": [:]]])
      for frame in frames { _ = await server.handle(frame) }
      done.signal()
    }
    done.wait()
  }
  if let problem = TraceFile.problem(in: text) {
    _ = DiagnosticFormatter.render(problem, in: SourceFile(name: "fuzz.trace", text: text))
  }
  _ = Lexer.needsContinuation(text)
  let source = SourceFile(name: "fuzz.pipe", text: text)
  let script = Parser.parse(source, grammar: .pipesh)
  // pipesh fmt's promise: a formatted script formats to itself.
  if case .success(let formatted) = Formatter.format(source, grammar: .pipesh) {
    let again = try? Formatter.format(SourceFile(name: "fuzz.pipe", text: formatted), grammar: .pipesh).get()
    precondition(again == formatted, "pipesh fmt changed a script it had formatted")
  }
  let (statements, environment, diagnostics) = Checker.check(script, in: Environment.pipesh)
  _ = DiagnosticFormatter.render(diagnostics, in: source)
  guard diagnostics.isEmpty else { return }
  for plain in [false, true] {
    _ = SwiftExport.program(statements, environment: environment, source: source, plain: plain)
  }
  // What a test is written of: every order saying the same, or not (the fuzzer runs no pipeline).
  let testable = SwiftExport.testable(statements, environment: environment, source: source)
  for verdict in [OrderVerdict.same(orders: 1), .differs(held: 1, orders: 2, token: "o"), .unknown(checked: 1)] {
    let verdicts = Dictionary(testable.map { ($0.range.start, verdict) }, uniquingKeysWith: { first, _ in first })
    _ = SwiftExport.tests(statements, environment: environment, source: source, verdicts: verdicts)
  }
  _ = DiagnosticFormatter.render(Page.passesBeforeRunning(statements, in: source), in: source)
}

#if FUZZING
  // libFuzzer calls this for every input it makes (built by Scripts/fuzz with -sanitize=fuzzer).
  @_cdecl("LLVMFuzzerTestOneInput")
  public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOne(UnsafeRawBufferPointer(start: data, count: size))
    return 0
  }

  @_silgen_name("LLVMFuzzerRunDriver")
  func runDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
  ) -> CInt

  // The package's executable entry point hands over to libFuzzer's driver.
  @_cdecl("PipeFuzz_main")
  public func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { data, size in testOneInput(data, size) }
  }
#else
  /// Without libFuzzer: runs every file named on the command line through `fuzzOne`, as a
  /// regression check of a corpus (`pipe-fuzz FILE…`).
  @main
  enum Replay {
    static func main() {
      var count = 0
      for path in CommandLine.arguments.dropFirst() {
        guard let file = fopen(path, "rb") else {
          print("pipe-fuzz: cannot read \(path)")
          exit(2)
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
          let read = fread(&buffer, 1, buffer.count, file)
          if read <= 0 { break }
          bytes.append(contentsOf: buffer[0..<read])
        }
        fclose(file)
        bytes.withUnsafeBytes { fuzzOne($0) }
        count += 1
      }
      print("pipe-fuzz: \(count) inputs, no trap")
    }
  }
#endif
