import Foundation
import ServeProtocol

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One input through everything pipesh-serve does with bytes from a page or from the feed before
/// acting on them: the message decoder, the answer it writes (which must be JSON that reads back
/// to the same text), the feed's reader and the presented state. Any trap here is a bug.
func fuzzOne(_ bytes: UnsafeRawBufferPointer) {
  let reply: ServerMessage
  switch ClientMessage.decode(bytes) {
  case .success(.run(let id, let script)): reply = .result(id: id, status: 0, html: script, milliseconds: 0)
  case .success(.export(let id, let script)): reply = .export(id: id, swift: script, test: nil, message: "")
  case .failure(let error): reply = .error(error.description)
  }
  checkReadsBack(reply)
  var presentation = Presentation(transcriptLimit: 256)
  let text = String(decoding: bytes, as: UTF8.self)
  for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
    if let event = FeedEvent.decode(Array(line.utf8)) {
      presentation.apply(event)
      checkReadsBack(.present(.fed(event)))
    }
  }
  presentation.apply(.output(text))
  presentation.end()
  checkReadsBack(.present(.state(presentation)))
}

/// The frame the server would send is JSON, and its strings read back as written.
func checkReadsBack(_ message: ServerMessage) {
  let frame = message.json
  guard let object = try? JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any] else {
    preconditionFailure("not JSON: \(frame)")
  }
  switch message {
  case .error(let text):
    precondition(object["message"] as? String == text, "the error's text did not read back: \(frame)")
  case .result(_, _, let html, _):
    precondition(object["html"] as? String == html, "the html did not read back: \(frame)")
  default: break
  }
}

#if FUZZING
  // libFuzzer calls this for every input it makes (built by Scripts/fuzz --serve with -sanitize=fuzzer).
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
  @_cdecl("ServeFuzz_main")
  public func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
  ) -> CInt {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { data, size in testOneInput(data, size) }
  }
#else
  /// Without libFuzzer: runs every file named on the command line through `fuzzOne`, as a
  /// regression check of a corpus (`ServeFuzz FILE…`).
  @main
  enum Replay {
    static func main() {
      var count = 0
      for path in CommandLine.arguments.dropFirst() {
        guard let data = FileManager.default.contents(atPath: path) else {
          print("serve-fuzz: cannot read \(path)")
          exit(2)
        }
        data.withUnsafeBytes { fuzzOne($0) }
        count += 1
      }
      print("serve-fuzz: \(count) inputs, no trap")
    }
  }
#endif
