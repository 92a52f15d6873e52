import PipeSema
import PipeSession
import PipeSyntax

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What completion can name besides the fixed words: the session's names, jobs and channels.
public struct CompletionContext: Sendable {
  public var sourceFragments: [String] = []
  public var operatorFragments: [String] = []
  public var jobIDs: [Int] = []
  public var channels: [String] = []

  public init() {}
}

/// Tab completion by position: commands and sources at the start of a statement and after `(`,
/// operators and sinks after `|`, argument labels, `let` names, job ids after cancel/wait/inspect/why,
/// channel names after send/close, file paths after `load "` and inside `lines "`.
public enum Completion {
  static let sources = OperatorKind.signatures.all.filter { $0.role == .source }.map(\.name)
  static let combinators = OperatorKind.signatures.all.filter { $0.role == .combinator }.map { $0.name + "(" }
  static let stages =
    OperatorKind.signatures.all.filter { $0.role == .operator || $0.role == .sink }.map(\.name)
    + OperatorKind.aliases.keys.sorted()
  static let commands = Commands.table.names
  /// The options of the commands on a pipeline (`draw … tick:`), by command.
  static let commandOptions = Dictionary(
    Commands.table.signatures.map { ($0.name, $0.options.map { $0 + ":" }) }, uniquingKeysWith: { first, _ in first })

  /// The length of the word before the cursor and the candidates that complete it, sorted.
  public static func complete(_ before: String, _ context: CompletionContext) -> (wordLength: Int, candidates: [String])
  {
    // Inside a string: a file path after `load "` or `lines "`.
    let quotes = before.filter { $0 == "\"" }.count
    if quotes % 2 == 1, let open = before.lastIndex(of: "\"") {
      let head = before[..<open].trimmingTrailingSpaces
      let word = String(before[before.index(after: open)...])
      let takingFiles = [Commands.Load.signature.name, OperatorKind.fileSource.name]
      guard takingFiles.contains(where: { head.hasSuffix($0) }) else { return (0, []) }
      return (word.count, paths(matching: word))
    }
    let separators: Set<Character> = [" ", "\t", "|", "(", ",", ";", "{", "&"]
    let word = String(before.reversed().prefix { !separators.contains($0) }.reversed())
    let rest = before.dropLast(word.count)
    let statement = rest.split(separator: ";", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    let words = statement.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    let lastMark = statement.last { !$0.isWhitespace }
    var pool: [String]
    if words.first == Commands.Expect.signature.name, let next = everyOrder(after: words) {
      pool = [next]
    } else if let first = words.first, !statement.contains("|"), !statement.contains("(") {
      // What the command's form takes next; no command: a stage's labels.
      let signature = Commands.table[first]?.signature
      switch signature?.form {
      case .jobs(let all, _)?:
        pool = context.jobIDs.map(String.init) + (all ? ["all"] : [])
      case .job?:
        pool = context.jobIDs.map(String.init)
      case .values?, .failure?:
        pool = words.count == 1 ? context.channels : []
      case .word(choices: nil, _, _)?:
        // A channel where the word names one (`close`); nothing to offer for another word.
        pool = words.count == 1 && signature?.namesKnownChannel == true ? context.channels : []
      case .word(let choices?, _, _)?:
        pool = choices
      case .topic?:
        pool = words.count == 1 ? OperatorKind.signatures.names + Commands.table.names + Commands.table.topics : []
      case .pipeline?, .expectation?:
        // The pipeline's source; after it, its labels and the command's own options.
        pool =
          words.count == 1
          ? sources + combinators + context.sourceFragments
          : unused(labels(of: words[1]) + (commandOptions[first] ?? []), in: words)
      case .optionalJob(let label)?:
        // A running job's number first, then the time to run to.
        pool = (words.count == 1 ? context.jobIDs.map(String.init) : []) + unused([label + ":"], in: words)
      case .bare?, .file?, .recording?, .duration?, .validation?, nil:
        // No command, or one whose words completion does not offer: a stage's labels.
        pool = unused(labels(of: first), in: words)
        if first == "let", words.count >= 3 { pool = sources + combinators + context.sourceFragments + stages }
      }
    } else if lastMark == nil || lastMark == ";" || lastMark == "&" {
      pool = commands + sources + combinators + context.sourceFragments
    } else if lastMark == "(" || lastMark == "," {
      pool = sources + combinators + context.sourceFragments
    } else if lastMark == "|" {
      pool = stages + context.operatorFragments
    } else {
      let stage = statement.split(whereSeparator: { "|(,".contains($0) }).last.map(String.init) ?? ""
      let stageWords = stage.split(separator: " ").map(String.init)
      let name = stageWords.first ?? ""
      // A pipeline command's options stand after its whole pipeline, outside any parentheses.
      let options = depth(statement) == 0 ? words.first.flatMap { commandOptions[$0] } ?? [] : []
      pool = unused(labels(of: name) + options, in: stageWords)
      // Right after a label, its values where they are few (`print time: ` → true, false).
      if let label = stageWords.last, label.hasSuffix(":") {
        pool = values(of: String(label.dropLast()), in: name)
      }
    }
    let candidates = Array(Set(pool.filter { $0.hasPrefix(word) })).sorted()
    return (word.count, candidates)
  }

  /// The next word of `expect`'s `in: every order` after `words`, if they end in part of it.
  static func everyOrder(after words: [String]) -> String? {
    let label = CommandOptions.inLabel + ":"
    if words.last == label { return "every" }
    if words.suffix(2) == [label, "every"] { return "order" }
    return nil
  }

  /// The labels not yet written among `words` (a label is given once).
  static func unused(_ labels: [String], in words: [String]) -> [String] {
    labels.filter { !words.contains($0) }
  }

  /// How many parentheses are open at the end of `text`.
  static func depth(_ text: String) -> Int {
    text.reduce(0) { depth, character in depth + (character == "(" ? 1 : character == ")" ? -1 : 0) }
  }

  /// `latest:` and friends, for a stage named `name`.
  static func labels(of name: String) -> [String] {
    OperatorKind.signatures[name]?.parameters.compactMap { $0.label.map { $0 + ":" } } ?? []
  }

  /// The values a stage's label takes, when they can be listed: `true` and `false` for a Bool.
  static func values(of label: String, in name: String) -> [String] {
    let parameter = OperatorKind.signatures[name]?.parameters.first { $0.label == label }
    return parameter?.kind == .bool ? ["false", "true"] : []
  }

  /// Files and directories whose path starts with `prefix`; directories end with `/`.
  static func paths(matching prefix: String) -> [String] {
    let slash = prefix.lastIndex(of: "/")
    let directory = slash.map { String(prefix[...$0]) } ?? ""
    let stem = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
    guard let handle = opendir(directory.isEmpty ? "." : directory) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      guard name != ".", name != "..", name.hasPrefix(stem), !(stem.isEmpty && name.hasPrefix(".")) else { continue }
      var info = stat()
      let isDirectory = stat(directory + name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
      names.append(directory + name + (isDirectory ? "/" : ""))
    }
    return names.sorted()
  }
}

extension StringProtocol {
  fileprivate var trimmingTrailingSpaces: String {
    var text = String(self)
    while text.last == " " { text.removeLast() }
    return text
  }
}
