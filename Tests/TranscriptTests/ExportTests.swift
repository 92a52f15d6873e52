import Foundation
import Testing

/// `pipesh --emit-swift` on every transcript script and every Example: the exported programs are
/// compiled together (one executable, each script a function of it, `-warnings-as-errors`), and
/// each must print what pipesh prints (its pinned stdout, stderr and exit status) unless its
/// output depends on timing. Timed ones must compile; those marked `#export: real clock` (generous
/// intervals) must print the same on the real clock too. A script that does not check exports
/// nothing, with pipesh's own diagnostics and status 2.
@Suite("exported Swift programs", .serialized)
struct ExportTests {
  static let root = TranscriptTests.examples.deletingLastPathComponent()
  static let package = root.appendingPathComponent(".build-export")

  /// One script: where it lives, what it expects, and its export.
  struct Exported {
    let name: String
    let identifier: String
    let directory: URL
    let expectation: Expectation
    let program: String
    let warnings: String
    /// Whether its output must be compared: untimed and without pipesh-only commands, or marked.
    let compared: Bool
  }

  @Test func exportedProgramsPrintWhatPipeshPrints() throws {
    var exported: [Exported] = []
    let sources =
      TranscriptTests.scripts.map { ($0, TranscriptTests.directory, "script") }
      + TranscriptTests.pipeFiles(in: TranscriptTests.examples).map { ($0, TranscriptTests.examples, "example") }
    for (name, directory, kind) in sources {
      let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
      let expectation = Expectation(parsing: text)
      let arguments = ["--emit-swift"] + expectation.arguments(file: name, text: text)
      let stdin = expectation.arguments.contains("--stdin") ? expectation.body(of: text) : nil
      let result = try Pipesh.run(arguments, stdin: stdin, directory: directory)
      if result.status == 2 {
        // A script that does not check: the export says what pipesh says, with the same status.
        #expect(expectation.status == 2, "export of \(name): \(result.stderr)")
        #expect(result.stderr == expectation.stderr, "diagnostics of the export of \(name)")
        continue
      }
      #expect(result.status == 0, "export of \(name): \(result.stderr)")
      guard result.status == 0 else { continue }
      let identifier = kind + "_" + name.dropLast(5).map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
      let timed = Self.isTimed(result.stdout) || expectation.arguments.contains("--virtual-time")
      let marked = text.contains("#export: real clock")
      exported.append(
        Exported(
          name: name, identifier: identifier, directory: directory, expectation: expectation,
          program: result.stdout, warnings: result.stderr,
          compared: marked || (!timed && result.stderr.isEmpty)))
    }
    #expect(exported.filter(\.compared).count >= 30)

    try write(exported)
    let build = try Command.run(
      "/usr/bin/env", ["swift", "build", "--package-path", Self.package.path], limit: 900)
    #expect(build.status == 0, "the exported programs do not compile:\n\(build.stdout)\(build.stderr)")
    guard build.status == 0 else { return }
    let lint = try Command.run(
      "/usr/bin/env",
      [
        "swift", "format", "lint", "--strict", "--configuration",
        Self.package.appendingPathComponent("format.json").path,
      ]
        + exported.map { Self.package.appendingPathComponent("programs/\($0.identifier).swift").path },
      limit: 600)
    #expect(lint.status == 0 && lint.stderr.isEmpty, "swift format lint of the exports:\n\(lint.stderr)")

    let binary = Self.package.appendingPathComponent(".build/debug/Exported")
    for script in exported where script.compared {
      let stdin = script.expectation.arguments.contains("--stdin") ? nil : script.expectation.stdin
      let run = try Command.run(
        binary.path, [script.identifier], stdin: stdin, directory: script.directory, limit: 120)
      #expect(run.stdout == script.expectation.stdout, "stdout of the export of \(script.name)")
      #expect(run.stderr == script.expectation.stderr, "stderr of the export of \(script.name)")
      #expect(run.status == script.expectation.status, "exit status of the export of \(script.name)")
    }
  }

  /// Whether a program's output can depend on timing: it uses a clock.
  static func isTimed(_ program: String) -> Bool {
    [
      "clock: .continuous", "timer(every:", "Task.sleep", "marble(", "delayed(by:", "working(for:", "timeout(after:",
      "origin",
    ].contains { program.contains($0) }
  }

  /// The package: each program one file, its `exit(await runScript())` replaced by a function the
  /// dispatching `main.swift` calls.
  func write(_ exported: [Exported]) throws {
    let sources = Self.package.appendingPathComponent("Sources/Exported")
    try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
    let manifest = """
      // swift-tools-version: 6.2
      import PackageDescription

      let package = Package(
        name: "Exported",
        dependencies: [.package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4")],
        targets: [
          .executableTarget(
            name: "Exported",
            dependencies: [.product(name: "AsyncAlgorithms", package: "swift-async-algorithms")],
            swiftSettings: [.treatAllWarnings(as: .error)])
        ],
        swiftLanguageModes: [.v6]
      )

      """
    try Self.write(manifest, to: Self.package.appendingPathComponent("Package.swift"))
    let configuration = try Command.run("/usr/bin/env", ["swift", "format", "dump-configuration"], limit: 120)
    try configuration.stdout.write(
      to: Self.package.appendingPathComponent("format.json"), atomically: true, encoding: .utf8)
    let programs = Self.package.appendingPathComponent("programs")
    try? FileManager.default.removeItem(at: programs)
    try FileManager.default.createDirectory(at: programs, withIntermediateDirectories: true)
    var cases: [String] = []
    for script in exported {
      try script.program.write(
        to: programs.appendingPathComponent("\(script.identifier).swift"), atomically: true, encoding: .utf8)
      let entry = "exit(await runScript())\n"
      #expect(script.program.contains(entry), "\(script.name)'s export has no entry line")
      let text =
        script.program.replacingOccurrences(of: entry, with: "")
        + "\nfunc \(script.identifier)() async -> Int32 { await runScript() }\n"
      try Self.write(text, to: sources.appendingPathComponent("\(script.identifier).swift"))
      cases.append("case \"\(script.identifier)\": exit(await \(script.identifier)())")
    }
    let main = """
      #if canImport(Glibc)
        import Glibc
      #endif

      switch CommandLine.arguments.dropFirst().first {
      \(cases.joined(separator: "\n"))
      default: exit(64)
      }

      """
    try Self.write(main, to: sources.appendingPathComponent("main.swift"))
    // A file of a script that is gone would still be compiled: remove it.
    let wanted = Set(exported.map { "\($0.identifier).swift" } + ["main.swift"])
    for name in try FileManager.default.contentsOfDirectory(atPath: sources.path) where !wanted.contains(name) {
      try FileManager.default.removeItem(at: sources.appendingPathComponent(name))
    }
  }

  /// Writes `text` unless the file has it already, so an unchanged program is not compiled again.
  static func write(_ text: String, to file: URL) throws {
    if (try? String(contentsOf: file, encoding: .utf8)) == text { return }
    try text.write(to: file, atomically: true, encoding: .utf8)
  }
}

/// Runs a program to its end, as `Pipesh.run` runs pipesh.
enum Command {
  static func run(
    _ executable: String, _ arguments: [String], stdin: String? = nil, directory: URL? = nil, limit: Double
  ) throws -> Pipesh.Result {
    try Pipesh.run(
      arguments, stdin: stdin, directory: directory, limit: limit, executable: URL(fileURLWithPath: executable))
  }
}
