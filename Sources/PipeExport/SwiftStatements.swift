import PipeSema
import PipeSyntax

/// A statement's Swift: a pipeline consumed as its sink does, and the commands a program keeps.
extension SwiftProgramWriter {
  /// The statements that build `pipeline` and consume it as its sink does.
  mutating func consume(
    _ pipeline: CheckedPipeline, declarations: inout [String], background: Bool
  ) throws(ExportProblem) -> [String] {
    let code = try sequence(pipeline, declarations: &declarations)
    let element = pipeline.elementType
    let type = SwiftExpression.typeName(element)
    let loop = code.throwing ? "for try await" : "for await"
    let awaiting = code.throwing ? "try await" : "await"
    var out = [code.binding("pipeline")]
    let prefix = jobPrefix
    let result: (String) -> String = { value in
      let text = SwiftExpression.shown(value, .optional(element))
      return "print(\(prefix.isEmpty ? text : "\"\(prefix)\\(\(text))\""))"
    }
    let ending = background ? "if !Task.isCancelled { " : ""
    let endingClose = background ? " }" : ""
    guard let sink = pipeline.sink, case .operation(let operation) = sink.node else {
      throw ExportProblem(message: "a pipeline without a sink", range: SourceRange(0, 0))
    }
    switch operation {
    case .print(let label, let time):
      var text = "\\(\(SwiftExpression.hasOptional(element) ? SwiftExpression.shown("element", element) : "element"))"
      if case .value(.string(let label), _) = label {
        text = SwiftExpression.escaped(label) + ": " + text
      }
      if case .value(.bool(true), _) = time {
        use(.timestamp)
        text = "\\(timestamp(since: origin)) " + text
      }
      let line = prefix + text
      out.append("\(loop) element in pipeline {")
      out.append(line == "\\(element)" ? "  print(element)" : "  print(\"\(line)\")")
      out.append("}")
    case .count:
      out.append("var count = 0")
      out.append("\(loop) _ in pipeline { count += 1 }")
      out.append(ending + "print(\"\(prefix)\\(count)\")" + endingClose)
    case .sum:
      if element == .double || plainArithmetic {
        out.append("let sum = \(awaiting) pipeline.reduce(0, +)")
      } else {
        use(.adding)
        use(.checkedAccumulating)
        out.append("let sum = try await pipeline.reduce(0, checked(\"sum\") { try $0.adding($1) })")
      }
      out.append(ending + "print(\"\(prefix)\\(sum)\")" + endingClose)
    case .min, .max:
      let name = operation.kind.name
      out.append("let \(name)imum = \(awaiting) pipeline.\(name)()")
      out.append(ending + result("\(name)imum") + endingClose)
    case .first:
      out.append("let first = \(awaiting) pipeline.first { _ in true }")
      out.append(result("first"))
    case .last:
      out.append("var last: \(type)?")
      out.append("\(loop) element in pipeline { last = element }")
      out.append(ending + result("last") + endingClose)
    case .collect:
      out.append("var all: [\(type)] = []")
      out.append("\(loop) element in pipeline { all.append(element) }")
      let shownAll = SwiftExpression.shown("all", .array(element))
      out.append(ending + "print(\"\(prefix)\\(\(shownAll))\")" + endingClose)
    case .reduce(let initial, let next):
      let (call, throwing) = try closure(next, initial: initial, sink, method: "reduce")
      out.append("let result = \(throwing || code.throwing ? "try await" : "await") pipeline\(call)")
      let text = SwiftExpression.shown("result", sink.outputType)
      out.append(ending + "print(\"\(prefix)\\(\(text))\")" + endingClose)
    case .drain:
      out.append("\(loop) _ in pipeline {}")
    case .diagram(let tick):
      use(.diagram)
      let tick = tick.flatMap { if case .duration(let d) = $0 { Self.duration(d) } else { nil } }
      out.append("print(\"\(prefix)\\(await diagram(of: pipeline, tick: \(tick ?? ".seconds(1)")))\")")
    case .into(let channel):
      out.append("\(loop) element in pipeline { await \(useChannel(channel)).send(element) }")
    case .timer, .range, .from, .marble, .random, .lines, .stdin, .channel, .stream, .subject, .empty, .never, .fail,
      .merge, .zip,
      .combineLatest, .chain, .map, .filter, .compactMap, .take, .drop, .takeWhile, .dropWhile, .compacted, .throttle,
      .debounce, .removeDuplicates, .interspersed, .adjacentPairs, .reductions, .chunks, .chunked, .buffer, .share,
      .enumerated, .delay, .work, .timeout, .mapError, .tap, .flatMap, .flatMapLatest, .spawn:
      throw problem(sink, "'\(operation.kind.name)' does not end a pipeline")
    }
    return out
  }

  // MARK: commands

  /// A command's Swift, as the command says (`CommandDefinition.export`): one that starts a job in
  /// pipesh takes a job number, and the program's later jobs keep theirs only if it counts it too.
  mutating func command(_ command: CheckedCommand, _ range: SourceRange) throws(ExportProblem) -> [String] {
    let text = source.text(of: range)
    switch command.command.export {
    case .wait(let ids):
      if ids.isEmpty { return waiting(background.map(\.name), text) }
      return try jobs(ids, text, range) { writer, names in writer.waiting(names, text) }
    case .cancel(nil):
      return cancelling(background.map(\.name), text)
    case .cancel(let ids?):
      return try jobs(ids, text, range) { writer, names in writer.cancelling(names, text) }
    case .send(let channel, let values):
      let type = environment.channels[channel] ?? .never
      let name = useChannel(channel)
      return ["// \(text)"]
        + values.map { value in
          let literal = SwiftExpression.literal(value, type)
          return switch environment.endpoints[channel] {
          case .stream?: "\(name)Continuation.yield(\(literal))"
          case .subject?: "await \(name).send(\(literal))"
          case nil: "await \(name).send(\(literal))"
          }
        } + [""]
    case .close(let channel):
      let name = useChannel(channel)
      let finish =
        switch environment.endpoints[channel] {
        case .stream?: "\(name)Continuation.finish()"
        case .subject?: "await \(name).finish()"
        case nil: "\(name).finish()"
        }
      return ["// \(text)", finish, ""]
    case .fail(let channel, let message):
      use(.channelFailure)
      let error = "ChannelFailure(description: \(SwiftExpression.stringLiteral(message)))"
      return ["// \(text)", "\(useChannel(channel)).fail(\(error))", ""]
    case .sleep(let duration):
      return ["// \(text)", "try? await Task.sleep(for: \(Self.duration(duration)))", ""]
    case .quit:
      let status = results.isEmpty ? ["return 0"] : succeededDeclaration + ["return succeeded ? 0 : 1"]
      return cancelling(background.map(\.name), text) + status + [""]
    case .own(let startsJob):
      // pipesh's own; one that runs its pipeline as a job takes the next number.
      if startsJob { nextJob += 1 }
      return ownCommand(command, range, text)
    case .expectation:
      nextJob += 1
      return ownCommand(command, range, text)
    case .validation:
      // Its run is a job, which takes the next number; its block may span lines: the comment has the first.
      nextJob += 1
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
      return ownCommand(command, range, lines.count > 1 ? lines[0] + " …" : text)
    case .load:
      // Its file's jobs take the next numbers in pipesh: a later job number cannot be written.
      loadedBefore = loadedBefore ?? (range, nextJob)
      return ownCommand(command, range, text)
    }
  }

  /// A command only pipesh has: a comment, and a warning that says so.
  private mutating func ownCommand(_ command: CheckedCommand, _ range: SourceRange, _ text: String) -> [String] {
    warnings.append(
      Diagnostic(
        id: .exportCommand, severity: .warning,
        message: "'\(command.name)' is pipesh's own; the program has it as a comment",
        range: range))
    return ["// \(text): pipesh's own, not in this program", ""]
  }

  /// `wait N…` / `cancel N…`: the background jobs named; a foreground job has ended already, and
  /// a job that was never started is the error pipesh reports when it runs the command.
  private mutating func jobs(
    _ ids: [Int], _ text: String, _ range: SourceRange,
    _ act: (inout SwiftProgramWriter, [String]) -> [String]
  ) throws(ExportProblem) -> [String] {
    if let loaded = loadedBefore, let unknown = ids.first(where: { $0 >= loaded.nextJob }) {
      let line = source.location(of: loaded.range.start).line
      throw ExportProblem(
        message: "job \(unknown) may be one the load on line \(line) starts, or come after them: its file's jobs "
          + "are not in the program, so their numbers are not known here; wait or cancel all instead, "
          + "or write that file's pipelines in this script",
        range: range)
    }
    let names = ids.compactMap { id in background.first { $0.id == id }?.name }
    var out = act(&self, names)
    let command = text.split(separator: " ").first.map(String.init) ?? text
    for id in ids where id >= nextJob {
      use(.job)
      out.insert("printError(\"error: \(command): no job \(id)\")", at: out.count - 1)
      if !results.contains("false") { results.append("false") }
    }
    return out
  }

  private func waiting(_ names: [String], _ text: String) -> [String] {
    ["// \(text)"] + names.map { "_ = await \($0).value" } + [""]
  }

  private func cancelling(_ names: [String], _ text: String) -> [String] {
    ["// \(text)"] + names.flatMap { ["\($0).cancel()", "_ = await \($0).value"] } + [""]
  }
}
