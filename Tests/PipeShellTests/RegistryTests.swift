import Foundation
import Locking
import PipeSyntax
import Testing

@testable import PipeRuntime
@testable import PipeSema
@testable import PipeShell

/// The operator registry, walked: every entry runs the way its role says, nothing is missing, and
/// every fused step does what its unfused node does.
@Suite("operator registry")
struct RegistryTests {
  static let names = OperatorKind.allCases.map(\.name)
  /// The operators whose example runs (`help` runs these; the others need a file, a terminal or
  /// a channel's sender).
  static let runnable = OperatorKind.allCases.filter(\.signature.exampleRuns)
  static let fusable = runnable.filter { kind in
    if case .node(_, let step, let source, _) = run(of: kind) { return step != nil || source != nil }
    return false
  }.map(\.name)

  /// The runtime's `Run` of an operator, from its example's checked stage.
  static func run(of kind: OperatorKind) -> Run? {
    let source = SourceFile(name: nil, text: kind.signature.example)
    var checker = Checker(environment: Environment.pipesh, source: source)
    func find(_ pipeline: CheckedPipeline) -> CheckedStage? {
      for stage in pipeline.stages {
        if stage.kind == kind { return stage }
        for input in stage.inputs { if let found = find(input) { return found } }
      }
      return nil
    }
    for statement in Parser.parse(source, grammar: .pipesh).statements {
      if case .run(let pipeline, _) = checker.check(statement), let stage = find(pipeline) {
        return stage.operation.map(Operators.run)
      }
    }
    return nil
  }

  @Test func namesAreUniqueAndAliasesResolve() {
    #expect(Set(Self.names).count == Self.names.count, "a name is registered twice")
    for (alias, kind) in OperatorKind.aliases {
      #expect(OperatorKind.signatures[alias]?.kind == kind)
      #expect(!Self.names.contains(alias))
    }
    #expect(OperatorKind.signatures.all.map(\.name) == Self.names)
    #expect(OperatorKind.allCases.allSatisfy { $0.signature.kind == $0 }, "a definition names another operator")
  }

  @Test("each entry's signature is complete", arguments: OperatorKind.allCases)
  func signatureIsComplete(_ kind: OperatorKind) {
    let signature = kind.signature
    #expect(!signature.summary.isEmpty && !signature.implementation.isEmpty)
    #expect(signature.usage.hasPrefix(kind.name))
  }

  @Test("each entry runs as its role says", arguments: runnable)
  func runMatchesRole(_ kind: OperatorKind) throws {
    let name = kind.name
    let role = kind.signature.role
    let run = try #require(Self.run(of: kind), "the example of \(name) has no stage of it")
    switch (role, run) {
    case (.sink, .sink): break
    case (.sink, .node): Issue.record("sink '\(name)' has a builder but no sink body")
    case (_, .sink): Issue.record("'\(name)' is a \(role.rawValue) with a sink body")
    case (.operator, .node(_, _, let source?, _)):
      _ = source
      Issue.record("operator '\(name)' has a fused source")
    case (.source, .node(_, let step?, _, _)):
      _ = step
      Issue.record("source '\(name)' has a fused step")
    case (.combinator, .node(_, let step, let source, _)):
      #expect(step == nil && source == nil, "combinator '\(name)' cannot be fused")
    case (_, .node): break
    }
  }

  /// (`help` runs these; the others need a file, a terminal or a channel's sender.)
  @Test("each runnable example checks", arguments: names.filter { OperatorKind.signatures[$0]?.exampleRuns ?? false })
  func exampleChecks(_ name: String) throws {
    let signature = try #require(OperatorKind.signatures[name])
    #expect(try Self.check(signature.example).isEmpty, "the example of \(name) does not check")
  }

  /// Every operator with a fused step or source gives the same output and node states fused and
  /// unfused: its example (a `timer` source replaced by a `range`, so no wall-clock time passes),
  /// and that example run into a stage that fails.
  @Test("fused and unfused agree", arguments: fusable)
  func fusedAgreesWithUnfused(_ name: String) async throws {
    let signature = try #require(OperatorKind.signatures[name])
    var example = signature.example
    if example.hasPrefix("timer ") { example = "range 0 9" + example.drop { $0 != "|" }.dropFirst(0) }
    #expect(try Self.check(example).isEmpty, "\(example)")
    let failing = example + " | map { 100 / ($0 == 3 ? 0 : 1) }"
    for text in try Self.check(failing).isEmpty ? [example, failing] : [example] {
      let fused = try await Self.run(text + " | collect", fusing: true)
      let unfused = try await Self.run(text + " | collect", fusing: false)
      #expect(fused.output == unfused.output, "\(text)")
      #expect(fused.states == unfused.states, "\(text)")
      #expect(!fused.states.isEmpty)
    }
  }

  static func check(_ text: String) throws -> [String] {
    let source = SourceFile(name: nil, text: text)
    return Checker.check(Parser.parse(source, grammar: .pipesh), in: Environment.pipesh).diagnostics.map(
      \.message)
  }

  static func run(_ text: String, fusing: Bool) async throws -> (output: [String], states: [String]) {
    let source = SourceFile(name: nil, text: text)
    var checker = Checker(environment: Environment.pipesh, source: source)
    let statement = try #require(Parser.parse(source, grammar: .pipesh).statements.first)
    guard case .run(let pipeline, _) = checker.check(statement) else {
      Issue.record("did not check: \(text)")
      return ([], [])
    }
    let lines = Locked<[String]>([])
    let console = Console()
    console.setLineWriter { line, _ in lines.withLock { $0.append(line) } }
    let job = JobTable(console: console, session: Session()).start(
      pipeline, background: false, clock: .real, fusing: fusing)
    await job.wait()
    let states = Node.flattened(job.nodes).map { "\($0.text): \($0.state) \($0.reason ?? "") out \($0.output)" }
    return (lines.withLock { $0 }, states + [job.state.rawValue])
  }
}

/// The command registry, walked: every command is a command to the parser, has help, and its name
/// is taken from the names a `let` may use and from the operators.
@Suite("command registry")
struct CommandRegistryTests {
  static let names = Commands.table.names

  @Test func namesAreUniqueAndApartFromOperators() {
    #expect(Set(Self.names).count == Self.names.count, "a command is registered twice")
    // `fail` is both: the command `fail NAME "…"` and the source `fail "…"`.
    #expect(Set(Self.names).intersection(OperatorKind.signatures.names) == ["fail"])
    #expect(Grammar.pipesh.commandsAlsoStages == ["fail"])
    #expect(Grammar.pipesh.commands == Set(Self.names))
  }

  @Test func aWordThatIsBothIsACommandOnlyBeforeAName() throws {
    let script = Parser.parse(
      SourceFile(name: nil, text: "fail c \"offline\"\nfail \"boom\"\nfail \"boom\" | count"),
      grammar: .pipesh)
    #expect(script.diagnostics.isEmpty)
    let kinds = script.statements.map { statement -> String in
      if case .command = statement.kind { return "command" }
      return "pipeline"
    }
    #expect(kinds == ["command", "pipeline", "pipeline"])
  }

  @Test("each command parses, has help and is reserved", arguments: names)
  func eachCommand(_ name: String) throws {
    // A command that is also a stage's name is a command when a name follows it.
    let text = Grammar.pipesh.commandsAlsoStages.contains(name) ? name + " x" : name
    let script = Parser.parse(SourceFile(name: nil, text: text), grammar: .pipesh)
    let statement = try #require(script.statements.first)
    guard case .command(let parsed, _, _) = statement.kind else {
      Issue.record("'\(name)' alone does not parse as a command")
      return
    }
    #expect(parsed.name == name)
    let signature = try #require(Commands.table[name]).signature
    switch signature.form {
    case .pipeline, .expectation:
      #expect(Grammar.pipesh.pipelineCommands[name] != nil)
    default:
      #expect(Grammar.pipesh.pipelineCommands[name] == nil)
    }
    if case .expectation = signature.form {
      #expect(Grammar.pipesh.claimWords[name] != nil)
    } else {
      #expect(Grammar.pipesh.claimWords[name] == nil)
    }
    #expect(Shell.check(SourceFile(name: nil, text: "help \(name)")).isEmpty)
    let reserved = Shell.check(SourceFile(name: nil, text: "let \(name) = map { $0 }"))
    #expect(reserved.map(\.id) == [.reservedName], "\(reserved.map(\.message))")
  }
  /// Every command type in Sources/PipeShell/Commands is in `Commands.all`: one left out would
  /// build, and its name would then be read as an unknown operator.
  @Test func everyCommandTypeIsListed() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/PipeShell/Commands")
    var declared: [String] = []
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let words = line.split(separator: " ")
        if let index = words.firstIndex(of: "struct"), index + 2 < words.count, words[index + 2] == "ShellCommand" {
          declared.append(String(words[index + 1].dropLast()))
        }
      }
    }
    #expect(declared.count > 30)
    #expect(Set(declared) == Set(Commands.all.map { "\($0)" }))
  }

  /// Each command reads its arguments in the form its signature declares (`reader.jobs()` for a
  /// `.jobs` form): its help example checks without a diagnostic, where a command read in another
  /// form would report pipesh's bug at every use.
  @Test("each command reads its declared form", arguments: Commands.table.names)
  func eachCommandReadsItsForm(_ name: String) throws {
    let command = try #require(Commands.named(name))
    let diagnostics = Shell.check(SourceFile(name: nil, text: command.example.text))
    #expect(diagnostics.isEmpty, "\(name): \(diagnostics.map(\.message))")
    #expect(command.example.text.split(separator: "\n").contains { $0.hasPrefix(name + " ") || $0 == name })
  }
}
