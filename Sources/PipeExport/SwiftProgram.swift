import PipeSema
import PipeSyntax

extension DiagnosticID {
  /// What the Swift program cannot say (`swift`, `--emit-swift`).
  public static let export = DiagnosticID("export")
  /// A command only pipesh has, left in the program as a comment.
  public static let exportCommand = DiagnosticID("export-command")
}

/// `pipesh --emit-swift` and the `swift` command: the Swift program, over swift-async-algorithms,
/// that does what a script or a pipeline does.
public enum SwiftExport {
  /// The exported text, and what could not be exported (pipesh-only commands, left as comments).
  public struct Output: Sendable {
    public let text: String
    public let warnings: [Diagnostic]
  }

  /// A complete `main.swift` for checked `statements` of `source`.
  /// `plain`: without pipesh's per-element checks (Swift's own Int arithmetic, arguments worked
  /// out from `$0` unchecked), to paste into an app; it prints what pipesh prints wherever those
  /// checks would not fire, and traps or goes on where they would.
  public static func program(
    _ statements: [CheckedStatement], environment: Environment, source: SourceFile, plain: Bool = false
  ) -> Result<Output, Diagnostic> {
    var writer = SwiftProgramWriter(environment: environment, source: source)
    writer.plainArithmetic = plain
    writer.plainChecks = plain
    do {
      return .success(try writer.program(statements))
    } catch {
      return .failure(Diagnostic(id: .export, message: error.message, range: error.range))
    }
  }

  /// The Swift of one pipeline, as a Swift engineer would paste it into an async throwing
  /// function: the declarations of the channels, streams and subjects it reads, the statements
  /// that build and consume it, notes where an API needs macOS 15 / iOS 18 or is underscored, and
  /// only the helpers it uses. Int arithmetic is Swift's own unless `checked` (pipesh's checked
  /// helpers, which report an overflow as the job's error). Arguments worked out from `$0` are
  /// checked as pipesh checks them unless `plain`, which leaves out every per-element check.
  public static func pipeline(
    _ pipeline: CheckedPipeline, environment: Environment, source: SourceFile, checked: Bool = false,
    plain: Bool = false
  ) -> Result<String, Diagnostic> {
    var writer = SwiftProgramWriter(environment: environment, source: source)
    writer.plainArithmetic = !checked
    writer.plainChecks = plain
    do {
      var declarations: [String] = []
      let body = try writer.consume(pipeline, declarations: &declarations, background: false)
      let channels = writer.usedChannels.sorted().compactMap { writer.declaration(ofChannel: $0, atTopLevel: true) }
      var lines = ["import AsyncAlgorithms"]
      if writer.support.contains(.flatMapLatest) { lines.append("import Synchronization") }
      if !writer.support.isDisjoint(with: [.lines, .stdin]) {
        lines += ["#if canImport(Glibc)", "  import Glibc", "#elseif canImport(Darwin)", "  import Darwin", "#endif"]
      }
      lines.append("")
      lines += SnippetNote.notes(for: pipeline).flatMap { SwiftProgramWriter.wrapped("// " + $0) }
      lines += writer.publishedForm(of: pipeline).flatMap(SwiftProgramWriter.wrapped)
      // What is sent into must be declared where the senders reach it too: apart, above.
      if !channels.isEmpty { lines += channels + ["", "// In an async throwing function:"] }
      if writer.support.contains(.timestamp) { lines.append("let origin = ContinuousClock.now") }
      lines += writer.scriptDeclarations + declarations + body
      for definition in Support.definitions(writer.support) { lines += ["", definition] }
      return .success(lines.joined(separator: "\n"))
    } catch {
      return .failure(Diagnostic(id: .export, message: error.message, range: error.range))
    }
  }
}

/// What a snippet says about the APIs it uses, as comments at its top.
enum SnippetNote {
  static func notes(for pipeline: CheckedPipeline) -> [String] {
    let kinds = Set(pipeline.allStages.compactMap(\.kind))
    var notes: [String] = []
    if kinds.contains(.share) {
      notes.append("share needs macOS 15 / iOS 18: mark the code that uses it @available(macOS 15, iOS 18, *)")
    }
    if kinds.contains(.flatMapLatest) {
      notes.append(
        "flatMapLatestFixed (below) is pipesh's replacement of AA 1.1.4's flatMapLatest, which loses failures.")
      notes.append("Its Mutex needs macOS 15 / iOS 18: mark the code that uses it @available(macOS 15, iOS 18, *)")
    }
    if kinds.contains(.throttle) {
      notes.append(
        "_throttle is underscored in AsyncAlgorithms 1.1.4: its semantics are not settled and may change.")
    }
    if kinds.contains(.subject) {
      notes.append("CurrentValue (below) is pipesh's own: AsyncAlgorithms has no current-value sequence.")
    }
    return notes
  }
}

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
    // pipesh's flatMapLatest keeps its state behind a Mutex.
    if support.contains(.flatMapLatest) { lines.append("import Synchronization") }
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

/// The `@Published` view-model case: a `combineLatest` of subjects is, in an app, a view model's
/// `@Published` properties and `combineLatest` of their publishers' `.values`. That needs Combine,
/// which pipesh cannot compile here: the export carries it as a comment.
extension SwiftProgramWriter {
  func publishedForm(of pipeline: CheckedPipeline) -> [String] {
    for stage in pipeline.allStages where stage.kind == .combineLatest {
      var properties: [String] = []
      var inputs: [String] = []
      var staged = false
      for input in stage.inputs {
        guard let first = input.stages.first, case .operation(.subject(let name, let initial)) = first.node,
          let type = environment.channels[name]
        else {
          inputs.append("/* \(input.text) */")
          continue
        }
        let property = channelName(name)
        let literal = SwiftExpression.literal(initial, type)
        properties.append("//     @Published var \(property): \(SwiftExpression.typeName(type)) = \(literal)")
        inputs.append("model.$\(property).values")
        staged = staged || input.stages.count > 1
      }
      guard !properties.isEmpty else { continue }
      var lines = [
        "// In an app, the subjects are a view model's @Published properties, and combineLatest takes",
        "// their publishers' .values (Combine's, which gives the current value first, as a subject",
        "// does; it needs Combine, so pipesh cannot compile it here). In Swift 6 import Combine with",
        "// @preconcurrency: AsyncPublisher is not Sendable, and AA's combineLatest wants Sendable inputs.",
        "//   @MainActor final class ViewModel: ObservableObject {",
      ]
      lines += properties
      lines += [
        "//   }",
        "//   let model = ViewModel()",
        "//   let latest = combineLatest(\(inputs.joined(separator: ", ")))",
      ]
      if staged { lines.append("//   (each input's stages after its subject applied to its .values, as below)") }
      return lines
    }
    return []
  }
}
