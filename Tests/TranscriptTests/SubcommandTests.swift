import Foundation
import Testing

/// pipesh's entry points are ArgumentParser subcommands of one root command; `run` (a script, `-c`
/// or the interactive shell) is the default.
@Suite("subcommands")
struct SubcommandTests {
  /// What `pipesh --help` prints (80 columns: not a terminal, no COLUMNS).
  static let help = """
    OVERVIEW: A shell for composing Swift AsyncSequence pipelines.

    pipesh FILE runs a .pipe script and pipesh -c TEXT the statements in TEXT; with
    neither, pipesh is an interactive shell when standard input is a terminal, and
    otherwise reads statements from standard input like a script. pipesh help run
    lists their options.
    Exit status: 0 success, 1 a pipeline failed, 2 usage or parse/type error, 130
    interrupted.
    A subcommand is one only as pipesh's first argument: a script named test (or
    serve, attach, fmt, lsp, run, help) runs as pipesh ./test.

    USAGE: pipesh [run] [<options>] [<file>]
           pipesh test [<options>] [<PATH> ...]
           pipesh serve [<options>]
           pipesh attach <SOCKET> [<options>]
           pipesh fmt [--check] [<FILE> ...]
           pipesh lsp

    OPTIONS:
      --version               Show the version.
      -h, --help              Show help information.

    SUBCOMMANDS:
      run (default)           Run a .pipe script, the statements of -c TEXT, or the
                              interactive shell.
      test                    Run every .pipe file under the PATHs as a test.
      serve                   Serve a page, on 127.0.0.1 only, that runs and draws
                              the pipelines typed into it.
      attach                  Draw the probes of a running program whose
                              ProbeRecorder listens on SOCKET.
      fmt                     Write .pipe scripts in the one layout of pipesh's
                              docs.
      lsp                     A language server for .pipe files (the Language
                              Server Protocol on standard input and output).

      See 'pipesh help <subcommand>' for detailed help.

    """

  @Test(arguments: [["--help"], ["-h"], ["help"]])
  func helpListsTheSubcommands(_ arguments: [String]) throws {
    let result = try Pipesh.run(arguments)
    #expect(result.status == 0)
    #expect(result.stderr == "")
    #expect(result.stdout == Self.help)
  }

  @Test(arguments: [
    ("run", "OVERVIEW: Run a .pipe script, the statements of -c TEXT, or the interactive\nshell.\n"),
    ("test", "OVERVIEW: Run every .pipe file under the PATHs as a test.\n"),
    ("serve", "OVERVIEW: Serve a page, on 127.0.0.1 only, that runs and draws the pipelines\n"),
    ("attach", "OVERVIEW: Draw the probes of a running program whose ProbeRecorder listens on\nSOCKET.\n"),
    ("fmt", "OVERVIEW: Write .pipe scripts in the one layout of pipesh's docs.\n"),
    (
      "lsp",
      "OVERVIEW: A language server for .pipe files (the Language Server Protocol on\nstandard input and output).\n"
    ),
  ])
  func eachSubcommandHasItsHelp(_ name: String, _ overview: String) throws {
    let asked = try Pipesh.run(["help", name])
    let flagged = try Pipesh.run([name, "--help"])
    #expect(asked.status == 0 && flagged.status == 0)
    #expect(asked.stdout.hasPrefix(overview), "\(asked.stdout)")
    #expect(flagged.stdout == asked.stdout)
    #expect(asked.stdout.contains("USAGE: pipesh \(name) ") || asked.stdout.contains("USAGE: pipesh \(name)\n"))
  }

  @Test func runsOptionsAreInItsHelp() throws {
    let result = try Pipesh.run(["help", "run"])
    for option in ["<file>", "-c <TEXT>", "--check <FILE>", "--emit-swift", "--emit-test", "--html", "--virtual-time"] {
      #expect(result.stdout.contains("  \(option) "), "\(option)")
    }
  }

  @Test(arguments: [["-c", "from \"text\" | print"], ["run", "-c", "from \"text\" | print"]])
  func runIsTheDefault(_ arguments: [String]) throws {
    let result = try Pipesh.run(arguments)
    #expect(result.status == 0)
    #expect(result.stdout == "text\n")
  }

  /// A script named as a subcommand runs as `./NAME` or `run NAME`; a name is a subcommand only as
  /// the first argument.
  @Test(arguments: [
    ["./serve"], ["run", "serve"], ["--no-color", "serve"], ["./run"], ["run", "run"], ["./help"], ["./attach"],
  ])
  func aScriptNamedAsASubcommandRunsByItsPath(_ arguments: [String]) throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-subcommands-\(UUID())")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    for name in ["serve", "run", "help", "attach"] {
      try "from \"named \(name)\" | print\n".write(
        to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    let result = try Pipesh.run(arguments, directory: root)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "named \(arguments.last?.split(separator: "/").last ?? "")\n")
  }

  @Test func aUsageErrorNamesTheSubcommand() throws {
    let result = try Pipesh.run(["--bogus"])
    #expect(result.status == 2)
    #expect(result.stdout == "")
    #expect(result.stderr.hasPrefix("Error: Unknown option '--bogus'\nUsage: pipesh run [<file>] [-c <TEXT>]"))
    #expect(result.stderr.hasSuffix("  See 'pipesh run --help' for more information.\n"))
  }

  /// `pipesh fmt`: files rewritten in place, `--check` naming those out of layout, standard input
  /// to standard output, and a file with a syntax error left as it was, its errors said.
  @Test func fmtRewritesFilesChecksThemAndLeavesABrokenOneAlone() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-fmt-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let messy = "# first\nfrom 1 2|map{$0*2}  |print\n"
    let tidy = "# first\nfrom 1 2 | map { $0 * 2 } | print\n"
    let broken = "from 1 | mapp {\n"
    for (name, text) in [("messy.pipe", messy), ("tidy.pipe", tidy), ("broken.pipe", broken)] {
      try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    func read(_ name: String) throws -> String {
      try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
    }
    let checked = try Pipesh.run(["fmt", "--check", "messy.pipe", "tidy.pipe"], directory: directory)
    #expect(checked.status == 1 && checked.stdout == "messy.pipe\n" && checked.stderr == "")
    #expect(try read("messy.pipe") == messy)
    let formatted = try Pipesh.run(["fmt", "messy.pipe", "tidy.pipe", "broken.pipe"], directory: directory)
    #expect(formatted.status == 2)
    #expect(try read("messy.pipe") == tidy && read("tidy.pipe") == tidy && read("broken.pipe") == broken)
    #expect(formatted.stderr.contains("broken.pipe:2:1: error:"), "\(formatted.stderr)")
    #expect(formatted.stderr.hasSuffix("pipesh fmt: broken.pipe is left as it is: fix its syntax first\n"))
    #expect(try Pipesh.run(["fmt", "--check", "messy.pipe", "tidy.pipe"], directory: directory).status == 0)
    let piped = try Pipesh.run(["fmt"], stdin: messy, directory: directory)
    #expect(piped.status == 0 && piped.stdout == tidy)
    // Bytes that are not UTF-8 (in a comment, where pipesh runs them) would come back as U+FFFD.
    let latin1 = Data("# caf".utf8) + Data([0xE9]) + Data("\nfrom 1|print\n".utf8)
    try latin1.write(to: directory.appendingPathComponent("latin1.pipe"))
    let refused = try Pipesh.run(["fmt", "latin1.pipe"], directory: directory)
    #expect(refused.status == 2)
    #expect(
      refused.stderr == "pipesh fmt: cannot read 'latin1.pipe': it is not UTF-8 text: line 1, byte 6 of the line\n")
    #expect(try Data(contentsOf: directory.appendingPathComponent("latin1.pipe")) == latin1)
  }

  /// `pipesh lsp` as an editor runs it: framed messages on standard input, framed answers on
  /// standard output, garbage said on standard error; the exit status the protocol asks for.
  @Test func lspAnswersOverItsStandardInputAndEndsAsTheProtocolSays() throws {
    func frame(_ json: String) -> String { "Content-Length: \(json.utf8.count)\r\n\r\n" + json }
    let initialize = frame(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#)
    let open = frame(
      #"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///a.pipe","#
        + #""languageId":"pipe","version":1,"text":"from 1 | mapp { $0 }\n"}}}"#)
    let shutdown = frame(#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#)
    let exit = frame(#"{"jsonrpc":"2.0","method":"exit"}"#)
    let ended = try Pipesh.run(["lsp"], stdin: initialize + "Bogus\r\n\r\n" + open + shutdown + exit)
    #expect(ended.status == 0, "\(ended.stderr)")
    #expect(ended.stderr == "pipesh lsp: skipped a header line without a colon: 'Bogus'\n")
    let answers = ended.stdout.components(separatedBy: "Content-Length: ").dropFirst()
    #expect(answers.count == 4, "\(ended.stdout)")
    #expect(answers.contains { $0.contains(#""message":"unknown operator 'mapp'\nnote: did you mean 'map'?""#) })
    #expect(answers.last?.hasSuffix(#"{"id":2,"jsonrpc":"2.0","result":null}"#) == true)
    #expect(try Pipesh.run(["lsp"], stdin: initialize + exit).status == 1)
    #expect(try Pipesh.run(["lsp"], stdin: initialize).status == 1)
  }
}
