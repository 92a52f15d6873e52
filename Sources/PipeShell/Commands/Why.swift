import PipeSema
import PipeSession
import PipeViews

extension Commands {
  /// `why N`: what became of every element of a watched job that did not reach its sink.
  struct Why: ShellCommand {
    static let signature = CommandSignature(
      "why", .job, usage: "why N | why \"F.trace\" FROM TO",
      summary:
        "for job N, which has ended and was watched (run by draw or trace, or stepped): every element that went into a node and did not come out of it, and what became of it, at which node and when: filtered, dropped by throttle (and which element won the window), replaced in debounce, dropped by a buffer's policy, removed as a duplicate, gathered into a chunk, combined into a zip's or combineLatest's tuple (or read by zip and never paired), turned into a flatMap's pipeline, in flight when the job was cancelled or failed, never asked for; per node, in = out + each kind of loss; why \"F.trace\" FROM TO reads a probe's saved trace instead (recorder.write(toFile:) or pipesh attach --save wrote it): the elements of lane FROM that did not come out at lane TO, a probe after it, followed by what they say (a probe knows no operator between two probes: equal elements are marked ?, and where TO gives elements FROM never said, as after a map, nothing is claimed)"
    )
    static let example = HelpExample("draw marble \"abcdef|\" | throttle 2 | filter { $0 != \"c\" }\nwhy 1")

    /// What `why` explains: a job's fates, or two lanes of a saved probe trace.
    enum Choice: Sendable {
      case job(Int)
      /// `why "F.trace" FROM TO`.
      case traceLanes(String, from: String, to: String)
    }
    let choice: Choice

    static func check(_ reader: inout CommandReader) -> Self? {
      if reader.startsWithString {
        return reader.traceLanes().map { Self(choice: .traceLanes($0.path, from: $0.from, to: $0.to)) }
      }
      return reader.job().map { Self(choice: .job($0)) }
    }

    var reach: CommandReach {
      switch choice {
      case .job: .session
      case .traceLanes(let path, _, _): .reads("why \"\(path)\" reads a saved trace's file")
      }
    }

    var export: CommandExport { .own(startsJob: false) }

    func run(in shell: Shell) async {
      switch choice {
      case .traceLanes(let path, let from, let to):
        guard let recording = shell.readTrace(path, command: "why") else { return }
        AttachSession.why(recording, from: from, to: to, .file(path), shell)
      case .job(let id):
        switch shell.engine.fates(ofJob: id) {
        case .success(let (job, fates)):
          let lines = FateLines(job: job, fates: fates)
          for line in lines.lines { shell.console.line(line) }
          if let problem = lines.problem { shell.engine.commandFailed(problem, at: 0) }
        case .failure(let refusal):
          shell.engine.commandFailed(refusal.message(id), at: 0)
        }
      }
    }
  }
}

extension WhyRefusal {
  /// What `why N` says instead.
  func message(_ id: Int) -> String {
    switch self {
    case .noJob: "why: no job \(id)"
    case .running: "why: job \(id) has not ended: wait \(id) or cancel \(id) first, then why \(id)"
    case .notWatched:
      "why: job \(id) was not watched, so pipesh kept no record of its elements (it records them only while a draw "
        + "or trace watches, not to slow every job down): run the pipeline with draw PIPELINE or trace PIPELINE, "
        + "then why on that job's number"
    case .forgotten:
      "why: job \(id)'s events are no longer kept (pipesh keeps those of the last \(Engine.keptHistories) watched "
        + "jobs): run its pipeline with draw or trace again"
    case .overflowed:
      "why: job \(id) made more than \(DrawObserver.maximumEvents) events and only the first were kept, so what "
        + "became of every element cannot be said: draw PIPELINE until: D runs it for less time"
    }
  }
}

/// `why N`'s lines: per node, its counts as `in = out + each kind of loss`, then each element it
/// let go of or held at its end, when it went in, what became of it and when.
struct FateLines {
  let lines: [String]
  /// What could not be followed (a bug of pipesh): the command's status is 1.
  let problem: String?

  init(job: JobSnapshot, fates: ElementFates) {
    var lines = ["[\(job.id)] \(job.state.rawValue): \(job.text)"]
    var problems: [String] = []
    let width =
      fates.accounts.map { Format.columns(String(repeating: "  ", count: $0.depth) + $0.node.text) }.max() ?? 0
    var lostInAll = 0
    for account in fates.accounts {
      let label = Format.pad(String(repeating: "  ", count: account.depth) + account.node.text, width)
      lines.append(label + "  " + Self.counts(account))
      if let reason = account.problem {
        problems.append(
          "why: pipesh could not follow \(account.node.text)'s elements: \(reason) (a bug: please report it)")
      }
      lostInAll += account.lost.count
      let rows = account.lost.sorted { ($0.time, $0.at) < ($1.time, $1.at) }.map { lost in
        [
          String(repeating: "  ", count: account.depth + 1) + lost.value,
          "\(lost.time.stampText) → \(lost.at.stampText)", Self.said(lost.fate),
        ]
      }
      lines += Format.table(rows)
    }
    if fates.earlierPipelines > 0 {
      lines.append(
        "(\(fates.earlierPipelines) earlier pipelines of a flatMap are not kept, so their elements are not followed)"
      )
    }
    lines.append(
      lostInAll == 1
        ? "1 element did not come out of a node as itself"
        : "\(lostInAll) elements did not come out of a node as themselves")
    self.lines = lines
    problem = problems.first
  }

  /// A node's counts: `in 11 = out 6 + throttled 5`.
  static func counts(_ account: ElementFates.Account) -> String {
    guard let input = account.input else { return "out \(account.output)" }
    if account.node.isSink { return "in \(input): reached the sink" }
    if account.problem != nil { return "in \(input), out \(account.output): not followed" }
    var kinds: [(String, Int)] = []
    for lost in account.lost {
      let name = Self.kind(lost.fate)
      if let index = kinds.firstIndex(where: { $0.0 == name }) { kinds[index].1 += 1 } else { kinds.append((name, 1)) }
    }
    // A chunk's elements came out inside it: what it passed on is then not what went in.
    let terms = (account.passed > 0 || kinds.isEmpty ? ["out \(account.passed)"] : []) + kinds.map { "\($0.0) \($0.1)" }
    let out = account.passed == account.output ? "" : ", out \(account.output)"
    let made = account.made == 0 ? "" : Self.made(account)
    return "in \(input) = " + terms.joined(separator: " + ") + out + made
  }

  /// What a node passed on that none of its inputs was: a share's copies, separators.
  static func made(_ account: ElementFates.Account) -> String {
    switch account.node.facts?.flow {
    case .shares?: " (with \(account.made) copies for its other readers)"
    default: " (with \(account.made) separators between them)"
    }
  }

  /// A kind of loss as its count says it.
  static func kind(_ fate: ElementFates.Fate) -> String {
    switch fate {
    case .lost(let loss, _):
      switch loss {
      case .filtered: "filtered"
      case .mappedToNil: "nil from the transform"
      case .wasNil: "nil"
      case .droppedFirst, .droppedWhile: "dropped"
      case .duplicate: "duplicates"
      case .throttled: "throttled"
      case .endedTake: "ended takeWhile"
      case .replaced: "replaced"
      case .bufferFull: "dropped by the policy"
      case .unpaired: "unpaired"
      case .overtaken: "replaced"
      case .uncombined: "never combined"
      case .alone: "never paired"
      }
    case .gathered: "gathered"
    case .combined: "combined"
    case .expanded: "expanded"
    case .inFlight: "in flight"
    case .neverAskedFor: "never asked for"
    }
  }

  /// What became of one element.
  static func said(_ fate: ElementFates.Fate) -> String {
    switch fate {
    case .lost(let loss, let by):
      switch loss {
      case .filtered: return "filtered out: the condition was false"
      case .mappedToNil: return "mapped to nil, so left out"
      case .wasNil: return "nil, left out"
      case .droppedFirst: return "dropped: one of the first ones drop skips"
      case .droppedWhile: return "dropped while the condition held"
      case .duplicate: return "removed as a duplicate" + (by.map { " of \($0), the last one passed on" } ?? "")
      case .throttled: return "throttled" + (by.map { ": \($0) won the window" } ?? "")
      case .endedTake: return "ended takeWhile: the condition was false"
      case .replaced: return "replaced in debounce" + (by.map { " by \($0), before the quiet time passed" } ?? "")
      case .bufferFull(let policy):
        let which =
          switch policy {
          case .newest: "the oldest, when a newer one came while full (policy: newest)"
          case .oldest, .bounded: "on arrival, the buffer being full (policy: oldest)"
          }
        return "dropped by the buffer: \(which)"
      case .unpaired: return "read by zip and never paired: an input ended first"
      case .overtaken:
        return "replaced" + (by.map { " by \($0)" } ?? "") + " before combineLatest combined it"
      case .uncombined: return "never combined: another input had no element to combine it with"
      case .alone: return "never paired: no element came after it"
      }
    case .gathered(let chunk): return "gathered into the chunk \(chunk)"
    case .combined(let into): return "combined into \(into)"
    case .expanded: return "became a pipeline of its own, whose elements came out in its place"
    case .inFlight(let cancelled): return "in flight when the job was \(cancelled ? "cancelled" : "failed")"
    case .neverAskedFor: return "held, never asked for: its consumer had stopped asking"
    }
  }
}
