import Foundation
import PipeSema
import PipeShell
import Testing

/// `why N` follows every operator of the catalogue: pipelines generated from each operator over
/// sources of different timing (at once, paced with equal neighbours, two at one instant, none),
/// each combinator over pairs and a triple of them, are drawn and asked `why`, all in one script,
/// and every node's counts must add up (`in = out + each kind of loss`), the losses to the total
/// said at the end, with nothing pipesh could not follow.
@Suite("why follows every operator")
struct WhyCatalogueTests {
  /// Sources of Ints, each timed differently.
  static let sources = [
    "from 1 2 2 3", "timer 1 | take 6 | map { $0 / 2 }", "merge(timer 1 | take 3, timer 0.5 | take 4)",
    "timer 1 | take 0",
  ]

  /// How an operator is tried.
  enum Use {
    /// Whole pipelines (a source's; `FILE` stands for a file of three lines).
    case pipelines([String])
    /// Stages put after every source (an operator's or a sink's).
    case stages([String])
    /// A combinator over every pair of sources and one triple.
    case combinator
    /// Not tried, and why.
    case untried(String)
  }

  /// Each operator's use: a switch with no `default:`, so an operator added to the catalogue is
  /// tried here too.
  static func use(_ kind: OperatorKind) -> Use {
    switch kind {
    case .timer: .pipelines(["timer 1 | take 3", "timer 0.5"])
    case .range: .pipelines(["range 1 10 by: 3"])
    case .from: .pipelines(["from 1 2 3"])
    case .marble: .pipelines(["marble \"ab-c--(de)|\"", "marble \"bb|\" | debounce 1", "marble \"a-b^\""])
    case .random: .pipelines(["random 1 3 count: 6 seed: 7 | removeDuplicates"])
    case .lines: .pipelines(["lines \"FILE\" | filter { $0 != \"b\" }"])
    case .stdin: .untried("it would read the test's own standard input; a source has nothing to follow")
    case .channel: .pipelines(["channel c of: Int | take 2"])
    case .stream: .pipelines(["stream s of: Int | take 2"])
    case .subject: .pipelines(["subject t initial: 0 | take 2"])
    case .empty: .pipelines(["empty | count"])
    case .never: .pipelines(["never | timeout 2"])
    case .fail: .pipelines(["fail \"boom\"", "chain(from 1 2, fail \"boom\")"])
    case .merge, .zip, .combineLatest, .chain: .combinator
    case .map: .stages(["map { $0 * 10 }"])
    case .filter: .stages(["filter { $0 % 2 == 0 }"])
    case .compactMap: .stages(["compactMap { $0 > 1 ? $0 : nil }"])
    case .take: .stages(["take 2", "take 0"])
    case .drop: .stages(["drop 1"])
    case .takeWhile: .stages(["takeWhile { $0 < 2 }"])
    case .dropWhile: .stages(["dropWhile { $0 < 2 }"])
    case .compacted: .stages(["map { $0 > 1 ? $0 : nil } | compacted"])
    case .throttle: .stages(["throttle 1", "throttle 2 latest: false"])
    case .debounce: .stages(["debounce 1", "debounce 0.5"])
    case .removeDuplicates: .stages(["removeDuplicates"])
    case .interspersed: .stages(["interspersed 0", "interspersed 2"])
    case .adjacentPairs: .stages(["adjacentPairs"])
    case .reductions: .stages(["reductions 0 { $0 + $1 }"])
    case .chunks: .stages(["chunks 2", "chunks 2 every: 1", "chunks 3 or: (timer 1.5 | map { \"s\" })"])
    case .chunked: .stages(["chunked 1.5", "chunked { $0 <= $1 }", "chunked by: (marble \"-x--y|\")"])
    case .buffer: .stages(["buffer 1 policy: newest | work 2", "buffer 1 policy: oldest | work 2", "buffer 2"])
    case .share: .stages(["share", "share | take 1"])
    case .enumerated: .stages(["enumerated"])
    case .delay: .stages(["delay 1"])
    case .work: .stages(["work 1", "work 1 cooperative: false | take 1"])
    case .timeout: .stages(["timeout 5", "timeout 0.7"])
    case .mapError: .stages(["map { 6 / ($0 - 2) } | mapError { \"no: \" + $0 }"])
    case .tap: .stages(["tap \"seen\""])
    case .flatMap:
      .stages(["flatMap { from $0 $0 }", "flatMap { timer 0.5 | take $0 } concurrency: 2", "flatMap { empty }"])
    case .flatMapLatest: .stages(["flatMapLatest { timer 0.7 | take 2 }"])
    case .spawn: .stages(["spawn { from $0 }"])
    case .print: .stages(["print"])
    case .count: .stages(["count"])
    case .sum: .stages(["sum"])
    case .min: .stages(["min"])
    case .max: .stages(["max"])
    case .first: .stages(["first"])
    case .last: .stages(["last"])
    case .collect: .stages(["collect"])
    case .reduce: .stages(["reduce 0 { $0 + $1 }"])
    case .drain: .stages(["drain"])
    case .diagram: .stages(["diagram"])
    case .into: .stages(["into c"])
    }
  }

  /// Every pipeline tried, each operator's in turn.
  static func pipelines(file: String) -> [String] {
    var pipelines: [String] = []
    for kind in OperatorKind.allCases {
      switch use(kind) {
      case .pipelines(let list): pipelines += list.map { $0.replacingOccurrences(of: "FILE", with: file) }
      case .stages(let stages):
        for stage in stages { pipelines += sources.map { "\($0) | \(stage)" } }
      case .combinator:
        for (first, second) in sources.flatMap({ first in sources.map { (first, $0) } }) {
          pipelines.append("\(kind.name)(\(first), \(second))")
        }
        pipelines.append("\(kind.name)(\(sources[0]), \(sources[1]), \(sources[2])) | take 4")
      case .untried: continue
      }
    }
    // Combinators and operators after one another, and a shared fragment read twice.
    pipelines += [
      "zip(from 1 2 3, timer 1 | take 4) | map { $0.0 + $0.1 } | filter { $0 > 2 }",
      "combineLatest(timer 1 | take 3, from 5 6) | debounce 0.5",
      "merge(from 1 2 | delay 1, timer 0.5 | take 3) | chunks 2 every: 1",
      "chain(timer 1 | take 2, from 7 7) | removeDuplicates | adjacentPairs",
      "from 1 2 3 | flatMap { zip(from $0 $0, timer 1 | take 3) } | take 4",
      "s | take 2", "zip(s, s | map { $0 * 2 })",
    ]
    return pipelines
  }

  @Test func everyOperatorIsTried() {
    for kind in OperatorKind.allCases {
      if case .untried = Self.use(kind) { continue }
      let tried = Self.pipelines(file: "f").contains { $0.contains(kind.name) }
      #expect(tried, "\(kind.name) is in no pipeline")
    }
  }

  @Test func countsAddUpForEveryOperator() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("why-catalogue-\(getpid()).txt")
    try "a\nb\nc\n".write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let pipelines = Self.pipelines(file: file.path)
    // Job 1 reads the channel `into c` sends to; each draw is the next job.
    var script = ["channel c of: Int | drain &", "let s = timer 1 | take 3 | share"]
    for (index, pipeline) in pipelines.enumerated() {
      script += ["draw \(pipeline) until: 12", "why \(index + 2)"]
    }
    script += ["close c", "wait"]
    let lines = await Shell.runExample(script.joined(separator: "\n"))
    let accounts = WhyAccounts(lines)
    #expect(accounts.jobs.count == pipelines.count, "\(lines.filter { $0.contains("error") })")
    for (index, pipeline) in pipelines.enumerated() {
      let job = index + 2
      guard let account = accounts.jobs[job] else {
        Issue.record("no why for job \(job): \(pipeline)")
        continue
      }
      for problem in account.problems { Issue.record("\(pipeline): \(problem)") }
    }
    #expect(!lines.contains { $0.contains("could not follow") || $0.contains("a bug") })
  }

  /// The reading above catches what `why` said of `zip` and `timeout` before it followed them.
  @Test func aCountNotFollowedOrNotAddingUpIsCaught() {
    let accounts = WhyAccounts([
      "[1] finished: zip(marble \"ab|\", marble \"12345|\")",
      "  marble \"ab|\"                      out 2",
      "zip(marble \"ab|\", marble \"12345|\")  in 5, out 2: combined into others, not followed one by one",
      "drain                               in 2: reached the sink",
      "0 elements did not come out of a node as themselves",
      "[2] finished: from 1 2 | timeout 5",
      "timeout 5  in 3 = out 2",
      "filter     in 3 = out 1 + filtered 2",
      "  2  +0.000s → +0.000s  filtered out: the condition was false",
      "1 element did not come out of a node as itself",
    ])
    #expect(accounts.jobs[1]?.problems.count == 1)
    #expect(accounts.jobs[2]?.problems.count == 2)
  }
}

/// `why`'s accounts read back from its lines, checked as they are read.
struct WhyAccounts {
  struct Job {
    var problems: [String] = []
    var lost = 0
  }

  var jobs: [Int: Job] = [:]

  init(_ lines: [String]) {
    var current: (id: Int, job: Job)?
    for line in lines {
      if let header = line.wholeMatch(of: /\[(\d+)\] (finished|failed|cancelled): .*/), let id = Int(header.1) {
        current = (id, Job())
        continue
      }
      guard let id = current?.id, var job = current?.job else { continue }
      if let total = line.wholeMatch(of: /(\d+) elements? did not come out of a node as (itself|themselves)/) {
        if Int(total.1) != job.lost {
          job.problems.append("the nodes let go of \(job.lost) elements, but the total says \(total.1)")
        }
        jobs[id] = job
        current = nil
        continue
      }
      // An element's row (`  b  +2.000s → +3.000s  throttled`) or a note: not a count.
      if line.contains(" → ") || line.hasPrefix("(") { continue }
      guard let counts = line.firstMatch(of: /\ \ (out \d+|in \d+.*)$/)?.1 else { continue }
      let text = String(counts)
      let plain = text.hasPrefix("out ") || text.hasSuffix(": reached the sink")
      if !plain, let sum = text.wholeMatch(of: /in (\d+) = (.*?)(, out \d+)?( \(with \d+ .*\))?/),
        let input = Int(sum.1)
      {
        var total = 0
        for term in sum.2.split(separator: " + ") {
          guard let count = term.split(separator: " ").last.flatMap({ Int($0) }) else {
            job.problems.append("cannot read \(term) in \(line)")
            continue
          }
          total += count
          if !term.hasPrefix("out ") { job.lost += count }
        }
        if total != input { job.problems.append("the counts do not add up: \(line)") }
      } else if !plain {
        job.problems.append("not followed: \(line)")
      }
      current = (id, job)
    }
  }
}
