import Locking
import PipeCombine
import PipeSema
import PipeSession
import PipeSyntax
import PipeViews

extension Commands {
  /// `help [NAME]`: the commands, or one command or operator with its example run.
  struct Help: ShellCommand {
    static let signature = CommandSignature(
      "help", .topic, usage: "help [NAME]", summary: "documentation of a command or operator")
    static let example = HelpExample("help stats")
    let topic: String?

    static func check(_ reader: inout CommandReader) -> Self? { reader.topic().map { Self(topic: $0) } }
    var reach: CommandReach { .session }
    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      await shell.help(topic)
    }
  }
}

extension Shell {
  /// Help fits the screen: long lines wrap at spaces, under their own indentation.
  func help(_ topic: String?) async {
    let width = Format.screenWidth
    func show(_ lines: [String]) {
      for line in lines.flatMap({ Format.wrapped($0, width: width) }) { console.line(line) }
    }
    guard let topic else {
      console.line("commands:")
      // What each does in a phrase: its summary up to the first detail; 'help NAME' says the rest.
      let rows = Commands.table.signatures.map { ["  " + $0.usage, Self.brief($0.summary)] }
      for line in Format.wrappedTable(rows, width: width) { console.line(line) }
      console.line("topics:")
      let topics = Commands.topics.map { ["  help " + $0.name, $0.summary] }
      for line in Format.wrappedTable(topics, width: width) { console.line(line) }
      show([
        "'ops' lists the operators; 'help NAME' explains a command, a topic or an operator in full, with an example."
      ])
      return
    }
    guard let lines = await Self.helpLines(topic) else {
      engine.commandFailed("help: pipesh knows no help for '\(topic)' (a bug: please report it)")
      return
    }
    show(lines)
  }

  /// What `help NAME` says of a command, a topic, an operator or a Combine or Swift name (each
  /// that `topic` names, in that order: `jobs` is a command and an operator), its examples run now
  /// on the virtual clock; nil for a word it knows nothing of. The shell's `help` and the language
  /// server's hover read it.
  public static func helpLines(_ topic: String) async -> [String]? {
    var lines: [String] = []
    if let command = Commands.named(topic) {
      lines += [command.signature.usage, "  " + command.signature.summary]
      lines += await Self.exampleLines(command.example.text, runs: command.example.runs)
    }
    if let helpTopic = HelpTopicKind(rawValue: topic).map(Commands.topic) {
      lines += [helpTopic.usage, "  " + helpTopic.summary] + helpTopic.text.map { "  " + $0 }
      if helpTopic.kind == .combine { lines += Self.combineTable }
      for example in helpTopic.examples { lines += await Self.exampleLines(example, runs: true) }
    }
    if let signature = OperatorKind.signatures[topic] {
      lines += await Self.helpText(signature)
    }
    if let foreign = ForeignName.named(topic) {
      lines += Self.helpText(foreign)
    }
    return lines.isEmpty ? nil : lines
  }

  /// `help combine`: a line per Combine API: the pipesh word, what AsyncAlgorithms (or Swift) has,
  /// and how they differ. The operators' counterparts first, in the order 'ops' lists them, then
  /// Combine's words that are no operator's counterpart, "no equivalent" where there is none.
  static var combineTable: [String] {
    var lines = [
      "Combine → pipesh word (AsyncAlgorithms 1.1.4 or Swift): how they differ",
      "  the operators' rows (first) were measured with compare on OpenCombine 0.14.0, not Apple's Combine;",
      "  the rows after them are from Apple's documentation (Docs/combine.md says where the two may differ)",
      "  † " + Counterpart.ownNote,
    ]
    for kind in OperatorKind.allCases {
      let counterpart = Counterparts.of(kind)
      // A source made for compare's scheduler is not what a Combine user writes: the words
      // below say what they do write (Timer, PassthroughSubject).
      guard counterpart.origin != .missing, counterpart.origin != .virtualSource else { continue }
      let difference = counterpart.difference.map { ": " + $0 } ?? ""
      lines.append("  \(counterpart.label) → \(kind.name) (\(kind.signature.implementation))\(difference)")
    }
    for foreign in ForeignName.all where !foreign.isAlias {
      let words = foreign.pipesh.isEmpty ? "no equivalent" : foreign.pipesh.joined(separator: " or ")
      let api = foreign.api.hasPrefix("Combine ") ? String(foreign.api.dropFirst(8)) : foreign.api
      lines.append("  \(api) → \(words) (\(foreign.swift)): \(foreign.advice)")
    }
    return lines
  }

  /// `help NAME` for a word of Combine or Swift concurrency: what it is in pipesh and in Swift.
  static func helpText(_ foreign: ForeignName) -> [String] {
    var lines = ["\(foreign.name): \(foreign.api)"]
    if foreign.pipesh.isEmpty { lines.append("  in pipesh: no equivalent") }
    for word in foreign.pipesh {
      let summary =
        OperatorKind.signatures[word].map { "\($0.usage): \($0.summary)" }
        ?? Commands.named(word).map { "\($0.signature.usage): \($0.signature.summary)" } ?? word
      lines.append("  in pipesh: " + summary)
    }
    lines.append("  in Swift: " + foreign.swift)
    lines.append("  " + foreign.advice)
    if !foreign.pipesh.isEmpty {
      lines.append("  " + foreign.pipesh.map { "'help \($0)'" }.joined(separator: ", ") + " shows it with an example")
    }
    lines.append("  'help combine' lists Combine's words beside AsyncAlgorithms' and pipesh's")
    return lines
  }

  /// "example:", the script's lines after `> `, and what it prints (run now on the virtual clock).
  /// A summary as the overview shows it: up to its first `; `, and at most about two lines
  /// (cut at a word, `…` marking the cut).
  static func brief(_ summary: String) -> String {
    var text = Substring(summary)
    if let cut = text.firstRange(of: "; ")?.lowerBound { text = text[..<cut] }
    let limit = 140
    guard text.count > limit else { return String(text) }
    let head = text.prefix(limit)
    return String(head[..<(head.lastIndex(of: " ") ?? head.endIndex)]) + " …"
  }

  static func exampleLines(_ example: String, runs: Bool) async -> [String] {
    var lines = ["example:"] + example.split(separator: "\n").map { "  > " + $0 }
    guard runs else { return lines }
    // The example's views fit the two columns less that the indentation leaves them.
    let width = Format.screenWidth
    let printed = await Format.$widthInside.withValue(width - 2) { await runExample(example) }
    lines += printed.map { Format.shortened("  " + $0, to: width) }
    return lines
  }

  /// The help of an operator: usage, summary, arguments, implementation, and its example with the
  /// output it really gives (run now on the virtual clock).
  public static func helpText(_ signature: OperatorSignature) async -> [String] {
    var lines = [signature.usage, "  \(signature.summary)"]
    if !signature.parameters.isEmpty {
      lines.append("arguments:")
      let names = argumentNames(signature)
      let rows = zip(signature.parameters, names).map { parameter, name in ["  " + name, parameter.help] }
      lines += Format.wrappedTable(rows, width: Format.screenWidth)
    }
    lines.append("implementation: \(signature.implementation)")
    lines += Counterparts.of(signature.kind).helpLines
    return lines + (await exampleLines(signature.example, runs: signature.exampleRuns))
  }

  /// How `help` names each argument: `latest:` for a labelled one; for the others, the words the
  /// usage line gives them, in order (`take N`: N), so the usage and the list agree.
  public static func argumentNames(_ signature: OperatorSignature) -> [String] {
    let positional = Set(signature.parameters.filter { $0.label == nil }.map(\.name))
    var placeholders: [String] = []
    var closure: [Substring]?
    var afterLabel = false
    var inParentheses = false
    for word in signature.usage.split(separator: " ").dropFirst() {
      // `{ e }` is one placeholder, written as it stands; `(alias scan)` is a remark.
      if var words = closure {
        words.append(word)
        closure = word == "}" ? nil : words
        if word == "}" { placeholders.append(words.joined(separator: " ")) }
        continue
      }
      if word == "{" {
        closure = [word]
        continue
      }
      if word.hasPrefix("(") { inParentheses = true }
      defer { if word.hasSuffix(")") { inParentheses = false } }
      guard !inParentheses else { continue }
      if word.hasSuffix(":") {
        afterLabel = true
        continue
      }
      defer { afterLabel = false }
      let bare = String(word.filter { !"[]…\"".contains($0) })
      let isPlaceholder =
        !bare.isEmpty && bare.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" } || positional.contains(bare)
      if isPlaceholder, !afterLabel { placeholders.append(bare) }
    }
    var next = placeholders.makeIterator()
    return signature.parameters.map { parameter in
      parameter.label.map { "\($0):" } ?? next.next() ?? parameter.name.uppercased()
    }
  }

  /// Runs a statement on the virtual clock in a fresh session and returns what it printed.
  public static func runExample(_ text: String) async -> [String] {
    let captured = Locked<[String]>([])
    let console = Console()
    console.setLineWriter { line, _ in captured.withLock { $0.append(line) } }
    let shell = Shell(console: console, interactive: false, virtualTime: true)
    _ = await shell.engine.runScript(SourceFile(name: nil, text: text))
    shell.engine.close()
    return captured.withLock { $0 }
  }
}
