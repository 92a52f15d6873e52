import PipeSyntax

/// One line of help per command, for `help` and completion.
public enum Commands {
  public static let usage: [(name: String, usage: String, summary: String)] = [
    ("jobs", "jobs", "lists the jobs: ID STATE TIME OUT PIPELINE"),
    ("cancel", "cancel N… | cancel all", "cancels jobs"),
    ("wait", "wait [N…]", "waits for jobs (all running ones when no N); Ctrl-C stops the waiting"),
    ("inspect", "inspect N", "draws the job's node tree with states and counts"),
    ("trace", "trace PIPELINE", "runs a pipeline, printing every lifecycle event of every node"),
    ("draw", "draw PIPELINE", "runs a pipeline on the virtual clock and draws one marble line per stage"),
    ("check", "check PIPELINE", "type-checks a pipeline and shows the element type after every stage"),
    ("send", "send NAME V…", "pushes values into channel NAME (waits for a consumer)"),
    ("close", "close NAME", "finishes channel NAME"),
    ("help", "help [NAME]", "documentation of a command or operator"),
    ("ops", "ops", "lists the operators"),
    ("names", "names", "lists the let bindings"),
    ("load", "load \"FILE\"", "runs a script file inside this shell"),
    ("clock", "clock real | clock virtual", "chooses the clock for pipelines started from now on"),
    ("stats", "stats", "counts live jobs, tasks and nodes"),
    ("history", "history", "lists the line history"),
    ("quit", "quit", "leaves; running jobs are cancelled"),
    ("exit", "exit", "leaves; running jobs are cancelled"),
    ("let", "let NAME = FRAGMENT", "names a pipeline fragment"),
  ]

  static func usage(of name: String) -> String {
    usage.first { $0.name == name }?.usage ?? name
  }
}

extension Checker {
  mutating func checkCommand(
    _ name: Identifier, _ arguments: [Argument], _ pipeline: Pipeline?, _ range: SourceRange
  )
    -> CheckedCommand?
  {
    let usage = Commands.usage(of: name.name)
    func fail(_ message: String, _ at: SourceRange? = nil) -> CheckedCommand? {
      report(SemaMessages.commandArguments(name.name, message, at ?? range, usage: usage))
      return nil
    }
    func integers() -> [Int]? {
      var values: [Int] = []
      for argument in arguments {
        guard argument.label == nil, case .integer(let value) = argument.value.kind else {
          _ = fail("expected a job number", argument.range)
          return nil
        }
        values.append(value)
      }
      return values
    }
    func word(_ argument: Argument) -> String? {
      if case .name(let word) = argument.value.kind { return word }
      return nil
    }
    switch name.name {
    case "jobs", "ops", "names", "quit", "exit", "stats", "history":
      if let extra = arguments.first { return fail("takes no arguments", extra.range) }
      switch name.name {
      case "jobs": return .jobs
      case "ops": return .ops
      case "names": return .names
      case "stats": return .stats
      case "history": return .history
      default: return .quit
      }
    case "cancel":
      if arguments.count == 1, word(arguments[0]) == "all" { return .cancelAll }
      if arguments.isEmpty { return fail("name the jobs to cancel") }
      return integers().map { .cancel($0) }
    case "wait":
      return integers().map { .wait($0) }
    case "inspect":
      guard arguments.count == 1 else { return fail("name one job") }
      return integers().map { .inspect($0[0]) }
    case "trace", "draw", "check":
      guard let pipeline else { return fail("expected a pipeline") }
      let checked =
        name.name == "check" ? checkPipeline(pipeline, input: nil, allowSink: true) : checkTopLevel(pipeline)
      guard let checked else { return nil }
      switch name.name {
      case "trace": return .trace(checked)
      case "draw": return .draw(checked)
      default: return .check(checked)
      }
    case "send":
      guard let first = arguments.first, let channel = word(first) else {
        return fail("name the channel first", arguments.first?.range)
      }
      guard arguments.count > 1 else { return fail("give at least one value to send") }
      var constants = ConstantChecker()
      var values: [Value] = []
      var type = environment.channels[channel] ?? .never
      for argument in arguments.dropFirst() {
        guard let (value, valueType) = constants.check(argument.value) else {
          if constants.diagnostics.isEmpty { return fail("values must be constants", argument.range) }
          diagnosticsAppend(constants.diagnostics)
          return nil
        }
        guard let joined = ValueType.join(type, valueType),
          environment.channels[channel] == nil || joined == environment.channels[channel]
        else {
          return fail("channel '\(channel)' carries '\(type)', not '\(valueType)'", argument.range)
        }
        type = joined
        values.append(value)
      }
      if environment.channels[channel] == nil { setChannel(channel, type) }
      return .send(channel, values.map { convert($0, to: type) })
    case "close":
      guard arguments.count == 1, let channel = word(arguments[0]) else { return fail("name one channel") }
      return .close(channel)
    case "help":
      guard let first = arguments.first else { return .help(nil) }
      guard arguments.count == 1, let topic = word(first) else { return fail("name one command or operator") }
      let known = environment.operators.names + Commands.usage.map(\.name)
      guard known.contains(topic) else {
        let note = NameSuggester.note(for: topic, in: known) ?? "'ops' lists the operators"
        report(
          Diagnostic(id: "unknown-name", message: "no help for '\(topic)'", range: first.range, notes: [note]))
        return nil
      }
      return .help(topic)
    case "load":
      guard arguments.count == 1, case .string(let parts) = arguments[0].value.kind, parts.count == 1,
        case .text(let path) = parts[0]
      else { return fail("give the file as a string, as in load \"demo.pipe\"") }
      return .load(path)
    case "clock":
      guard arguments.count == 1, let which = word(arguments[0]), which == "real" || which == "virtual" else {
        return fail("say real or virtual")
      }
      return .clock(virtual: which == "virtual")
    default:
      return fail("unknown command")
    }
  }
}
