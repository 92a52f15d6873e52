import PipeSyntax
import Testing
import VirtualTime

@testable import PipeRuntime
@testable import PipeSema
@testable import PipeSession
@testable import PipeShell

/// Walks the catalogue: every operator's example runs on a virtual clock of its own, every stage
/// its own node, once to its end (or 100 virtual seconds, then cancelled) and once cancelled
/// after three quarters of a second. The tasks are those the Swift runtime reported (`TaskBook`):
/// after the job ends, every one of them has ended, none is counted live, and each that an
/// operator started is put down to a node. An operator whose facts say it starts no task but
/// whose code did (or the reverse, where the run was long enough to ask it) fails here by name.
@Suite("tasks end with their job, walked from the catalogue")
struct TaskLifetimeTests {
  static let examples = CatalogueExamples.oneLine

  /// Runs `kind`'s example; cancels it after `cancelAfter` steps of a quarter second (never: nil),
  /// else after 400 steps. Returns the ended job.
  func run(_ kind: OperatorKind, cancelAfter: Int?) async throws -> Job? {
    guard let pipeline = try CatalogueExamples.pipeline(kind) else { return nil }
    let (table, driver, job) = CatalogueExamples.start(pipeline)
    defer { driver.shutdown(waiting: .seconds(5)) }
    var steps = 0
    while job.state == .running, steps < (cancelAfter ?? 400) {
      await CatalogueExamples.advance(driver)
      steps += 1
    }
    if job.state == .running { job.cancel() }
    await driver.run(until: { await job.wait() })
    await driver.settle()
    #expect(table.liveTaskCount == 0, "\(kind.name): \(Self.describe(job))")
    return job
  }

  static func describe(_ job: Job) -> String {
    job.context.tasks.records.map { task in
      "task \(task.id) (\(task.kindText), node \(task.node?.text ?? "-"))"
        + (task.end.map { " ended at \($0.time)" } ?? " still running")
    }.joined(separator: "; ")
  }

  @Test(arguments: examples)
  func everyTaskEndsWithItsJob(_ kind: OperatorKind) async throws {
    for cancelAfter in [nil, 3] {
      guard let job = try await run(kind, cancelAfter: cancelAfter) else { return }
      let records = job.context.tasks.records
      let how = cancelAfter == nil ? "run to its end" : "cancelled mid-run"
      #expect(records.first?.origin == .job, "\(kind.name), \(how): \(Self.describe(job))")
      for task in records {
        #expect(task.end != nil, "\(kind.name), \(how): task \(task.id) did not end: \(Self.describe(job))")
      }
      // What the operator's code started is under the operator's node (or a node of its input).
      let started = records.filter { $0.origin != .job }
      if cancelAfter == nil {
        let declared = Self.declaredTasks(job.nodes)
        #expect(
          declared || started.isEmpty,
          "\(kind.name)'s example started tasks its facts do not declare: \(Self.describe(job))")
        #expect(
          !declared || !started.isEmpty,
          "\(kind.name)'s facts declare tasks, but its example started none: \(Self.describe(job))")
      }
    }
  }

  /// Whether any node's facts say it starts tasks.
  static func declaredTasks(_ nodes: [Node]) -> Bool {
    Node.flattened(nodes).contains { node in
      guard let facts = node.facts else { return false }
      return facts.tasks != .none
    }
  }
}
