import PipeSema
import PipeSyntax

/// Writes one program: the script's statements in order inside `runScript()`, then the small
/// definitions it uses.
struct SwiftProgramWriter {
  let environment: Environment
  let source: SourceFile
  var support: Set<Support> = []
  /// Names given so far, for fresh ones (kept aside to write a `flatMapLatest` body again).
  var counts: [String: Int] = [:]
  /// Whether Int arithmetic is Swift's own (a snippet) or pipesh's checked helpers (a program,
  /// whose output must be pipesh's, overflow errors included).
  var plainArithmetic = false
  /// Whether arguments worked out from a `flatMap` body's element are written as Swift takes them,
  /// without pipesh's checks (`plain: true`, `--plain`).
  var plainChecks = false
  /// `[N] ` in a background job's output.
  var jobPrefix = ""
  /// The name a `flatMap` body's element has, while its body is written, and its type.
  var elementName: String?
  var elementType: ValueType?
  /// The Swift names of the hot parts of `share` fragments, by binding id, once declared.
  private var shared: [Int: String] = [:]
  var sharedThrowing: [Int: Bool] = [:]
  /// Whether an argument worked out from a `flatMap` body's element can throw.
  var deferredThrows = false
  /// Whether such an argument uses checked arithmetic, whose error names the `flatMap`.
  var deferredArithmetic = false
  /// In a `flatMapLatest` body: its element's name and the arguments that can fail, worked out in
  /// a `map` before it (AA's `flatMapLatest` takes no throwing closure).
  var precomputed: (element: String, values: [String])?
  /// In a `flatMap` body: the arguments checked per element (`let count = try checkedCount(…)`),
  /// declared before the rest of the body.
  var checkDeclarations: [String] = []
  /// Whether a declaration made for the pipeline being written (a combinator's input) is built
  /// with `try`.
  var declarationsThrow = false
  /// Declarations for the script's scope (the hot parts of `share` fragments).
  private(set) var scriptDeclarations: [String] = []
  private var bindingNames: [Int: String] = [:]
  var nextJob = 1
  /// The first `load`, and the next job number then: its file's jobs take numbers from there,
  /// which the program cannot know, nor those of the jobs after them.
  var loadedBefore: (range: SourceRange, nextJob: Int)?
  /// Background jobs started so far, for `wait`, `cancel` and the end of the script.
  var background: [(id: Int, name: String)] = []
  var warnings: [Diagnostic] = []
  /// Whether the code is a test's (`pipesh --emit-test`): time on MarbleTesting's `TestClock`,
  /// named `clock`, and marbles as `MarbleInput`s declared in `testInputs`.
  var testClock = false
  var testInputs: [String] = []
  /// The clock the time operators are given.
  var clockName: String { testClock ? "clock" : ".continuous" }

  init(environment: Environment, source: SourceFile) {
    self.environment = environment
    self.source = source
  }

  var failingChannels: Set<String> { environment.failingChannels }

  mutating func use(_ helper: Support) { support.insert(helper) }

  mutating func fresh(_ base: String) -> String {
    counts[base, default: 0] += 1
    let count = counts[base] ?? 1
    return count == 1 ? base : "\(base)\(count)"
  }

  /// The channels, streams and subjects the program's statements read, send into or close: the
  /// ones it declares.
  var usedChannels: Set<String> = []

  /// The Swift name of channel `name`, which the program uses.
  mutating func useChannel(_ name: String) -> String {
    usedChannels.insert(name)
    return channelName(name)
  }

  func channelName(_ name: String) -> String {
    let taken = ["job", "origin", "succeeded", "pipeline", "element", "input", "timer", "marble", "lines", "print"]
    let stages = [
      "mapped", "filtered", "compactMapped", "prefixed", "dropped", "reduced", "flattened", "latest", "stage",
    ]
    return taken.contains(name) || stages.contains(name) || Self.keywords.contains(name) ? name + "Channel" : name
  }

  static let keywords: Set<String> = [
    "as", "break", "case", "catch", "class", "continue", "default", "defer", "do", "else", "enum", "extension",
    "fallthrough", "false", "for", "func", "guard", "if", "import", "in", "init", "is", "let", "nil", "private",
    "protocol", "public", "repeat", "return", "self", "static", "struct", "super", "switch", "throw", "throws", "true",
    "try", "var", "where", "while", "await", "async", "any", "some", "Type", "Self",
  ]

  mutating func sharedName(_ id: Int, _ stage: CheckedStage) throws(ExportProblem) -> String {
    if let name = shared[id] { return name }
    guard let hot = stage.inputs.first else { throw problem(stage, "a shared fragment without its pipeline") }
    var declarations: [String] = []
    let outer = declarationsThrow
    declarationsThrow = false
    let code = try sequence(hot, declarations: &declarations)
    defer { declarationsThrow = outer }
    // The hot part is declared in runScript, which cannot throw.
    guard !code.buildThrows && !declarationsThrow else {
      throw problem(
        stage,
        "pipesh cannot export a shared fragment whose takeWhile's input can fail yet: Swift's "
          + "prefix(while:) must be called with 'try' there")
    }
    let name = fresh(bindingNames[id].map { channelName($0) } ?? "shared")
    scriptDeclarations += declarations
    scriptDeclarations.append(code.binding(name))
    shared[id] = name
    sharedThrowing[id] = code.throwing
    return name
  }

  // MARK: the program

  mutating func program(_ statements: [CheckedStatement]) throws(ExportProblem) -> SwiftExport.Output {
    var body: [String] = []
    for statement in statements {
      body += try self.statement(statement)
    }
    if !background.isEmpty { body.append("// The script ends when its background jobs have ended.") }
    var lines = [
      "// main.swift: exported by pipesh from \(source.name ?? "a pipeline").",
      "// Package.swift: .package(url: \"https://github.com/apple/swift-async-algorithms\", exact: \"1.1.4\")",
      "// and .product(name: \"AsyncAlgorithms\", package: \"swift-async-algorithms\") in the target.",
      "import AsyncAlgorithms",
    ]
    if Support.needsMutex(support) { lines.append("import Synchronization") }
    lines += [
      "",
      "#if canImport(Glibc)",
      "  import Glibc",
      "#elseif canImport(Darwin)",
      "  import Darwin",
      "#endif",
      "",
      "exit(await runScript())",
      "",
      "/// The script, statement by statement. Returns its exit status: 1 when a job failed.",
      "private func runScript() async -> Int32 {",
    ]
    var prologue: [String] = []
    if support.contains(.timestamp) { prologue.append("let origin = ContinuousClock.now") }
    prologue += channelDeclarations()
    let ending = results.isEmpty ? ["return 0"] : succeededDeclaration + ["return succeeded ? 0 : 1"]
    lines += Self.indented(prologue + (prologue.isEmpty ? [] : [""]) + body + ending).flatMap(Self.wrapped)
    lines.append("}")
    for definition in definitions() {
      lines.append("")
      lines.append(definition)
    }
    return SwiftExport.Output(text: lines.joined(separator: "\n") + "\n", warnings: warnings)
  }

  /// What the exit status is made of: each job's success, and `false` for a failed command.
  var results: [String] = []
  /// Whether the job being written reads a channel that a `fail NAME` ends with an error.
  var readsFailingChannel = false

  /// `let succeeded = [job1, await job2.value].allSatisfy { $0 }`: whether every job succeeded; a
  /// long list packed on lines of its own, as swift-format packs it.
  var succeededDeclaration: [String] {
    let list = results.joined(separator: ", ")
    let flat = "let succeeded = [\(list)].allSatisfy { $0 }"
    guard flat.count + 2 > 100 else { return [flat] }
    var lines: [String] = []
    var line = ""
    for result in results {
      let item = result + ","
      if !line.isEmpty && 4 + line.count + 1 + item.count > 100 {
        lines.append("  " + line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + item
    }
    lines.append("  " + line)
    return ["let succeeded = ["] + lines + ["].allSatisfy { $0 }"]
  }

  /// Statements (each maybe of several lines) one level deeper.
  static func indented(_ statements: [String]) -> [String] {
    statements.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }
      .map { $0.isEmpty ? "" : "  " + $0 }
  }

  func definitions() -> [String] { Support.definitions(support) }

  private mutating func channelDeclarations() -> [String] {
    usedChannels.sorted().compactMap { declaration(ofChannel: $0) }
  }

  /// `let c = AsyncChannel<Int>()`, `let (s, sContinuation) = AsyncStream.makeStream(…)`, or
  /// `let user = CurrentValue("guest")`: the declaration of what `name` is. At a file's top level
  /// (a snippet's), a subject's is `private`: its type is a helper, private to the file as they all
  /// are, and a constant of a private type must be private too.
  mutating func declaration(ofChannel name: String, atTopLevel: Bool = false) -> String? {
    guard let type = environment.channels[name] else { return nil }
    let element = SwiftExpression.typeName(type)
    let swiftName = channelName(name)
    switch environment.endpoints[name] {
    case .stream(let buffering)?:
      let policy =
        switch buffering {
        case .unbounded: ".unbounded"
        case .newest(let count): ".bufferingNewest(\(count))"
        case .oldest(let count): ".bufferingOldest(\(count))"
        }
      return "let (\(swiftName), \(swiftName)Continuation) = AsyncStream.makeStream(\n"
        + "  of: \(element).self, bufferingPolicy: \(policy))"
    case .subject(let initial)?:
      use(.currentValue)
      return (atTopLevel ? "private " : "")
        + "let \(swiftName) = CurrentValue<\(element)>(\(SwiftExpression.literal(initial, type)))"
    case nil:
      let kind = failingChannels.contains(name) ? "AsyncThrowingChannel<\(element), Error>" : "AsyncChannel<\(element)>"
      return "let \(swiftName) = \(kind)()"
    }
  }

  private mutating func statement(_ statement: CheckedStatement) throws(ExportProblem) -> [String] {
    switch statement {
    case .run(let pipeline, let isBackground):
      return try job(pipeline, isBackground: isBackground)
    case .binding(let binding):
      bindingNames[binding.id] = binding.name
      let text = source.text(of: binding.pipeline.range)
      return ["// let \(binding.name) = \(text)", ""]
    case .command(let command, let range):
      return try self.command(command, range)
    }
  }

  mutating func job(_ pipeline: CheckedPipeline, isBackground: Bool) throws(ExportProblem) -> [String] {
    let id = nextJob
    nextJob += 1
    jobPrefix = isBackground ? "[\(id)] " : ""
    readsFailingChannel = false
    defer { jobPrefix = "" }
    var declarations: [String] = []
    let before = scriptDeclarations.count
    let consuming = try consume(pipeline, declarations: &declarations, background: isBackground)
    let hoisted = Array(scriptDeclarations[before...])
    let inner = Self.indented(declarations + consuming)
    var out = hoisted + ["// [\(id)] \(pipeline.text)\(isBackground ? " &" : "")"] + publishedForm(of: pipeline)
    // A channel's failure is reported against the whole pipeline, as pipesh does.
    use(.job)
    var call = "job(\(id))"
    if readsFailingChannel {
      out += Self.splitLiteral("pipeline\(id)", pipeline.text)
      call = "job(\(id), pipeline\(id))"
    }
    let name = "job\(id)"
    if isBackground {
      background.append((id, name))
      results.append("await \(name).value")
      out.append("let \(name) = Task {")
      out.append("  await \(call) {")
      out += Self.indented(inner)
      out.append("  }")
      out.append("}")
    } else {
      results.append(name)
      out.append("let \(name) = await \(call) {")
      out += inner
      out.append("}")
    }
    return out + [""]
  }
}
