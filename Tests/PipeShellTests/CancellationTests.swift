import PipeShell
import PipeSyntax
import Testing

@testable import PipeRuntime
@testable import PipeSema

/// Cancelling a job stops every node of it; after it ends nothing of it keeps running or stays allocated.
@Suite("cancellation", .serialized)
struct CancellationTests {
  func pipeline(_ text: String) throws -> CheckedPipeline {
    let source = SourceFile(name: nil, text: text)
    var checker = Checker(environment: Environment.pipesh, source: source)
    let statement = try #require(Parser.parse(source, grammar: .pipesh).statements.first)
    guard case .run(let pipeline, _) = checker.check(statement) else {
      Issue.record("did not check: \(checker.diagnostics.map(\.message))")
      throw CancellationError()
    }
    return pipeline
  }

  /// Waits, by yielding, until `condition` holds; gives up after many rounds.
  func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<200_000 {
      if condition() { return true }
      await Task.yield()
    }
    return condition()
  }

  @Test func cancellingABackgroundJobStopsEveryNode() async throws {
    let console = Console()
    console.setLineWriter { _, _ in }
    let table = JobTable(console: console, session: Session())
    let job = table.start(
      try pipeline("merge(timer 1ms | map { $0 * 2 }, timer 2ms, never) | tap \"t\" | drain"), background: true,
      clock: .real)
    #expect(await eventually { job.output >= 3 })
    #expect(job.state == .running)
    job.cancel()
    await job.wait()
    #expect(job.state == .cancelled)
    let everyNode = Node.flattened(job.nodes)
    #expect(
      everyNode.map(\.text) == [
        "timer 1ms", "map { $0 * 2 }", "timer 2ms", "never", "merge(timer 1ms | map { $0 * 2 }, timer 2ms, never)",
        "tap \"t\"", "drain",
      ])
    #expect(everyNode.allSatisfy { $0.state == .cancelled }, "\(everyNode.map { "\($0.text): \($0.state)" })")
    // The job ends only after every node has let go: no waiting needed here.
    #expect(job.context.liveNodes.value == 0)
    #expect(table.liveTasks.load(ordering: .relaxed) == 0)
  }

  @Test func manyJobsStartedAndCancelledLeaveNothingBehind() async throws {
    let console = Console()
    console.setLineWriter { _, _ in }
    let table = JobTable(console: console, session: Session())
    let checked = try pipeline("timer 1 | map { $0 + 1 } | drain")
    let started = (0..<1000).map { _ in table.start(checked, background: true, clock: .real) }
    #expect(table.cancelAll() == 1000)
    for job in started { await job.wait() }
    #expect(started.allSatisfy { $0.state == .cancelled })
    #expect(table.liveNodes == 0)
    #expect(table.liveTasks.load(ordering: .relaxed) == 0)
  }
}
