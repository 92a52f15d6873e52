import AsyncAlgorithms
import PipeshProbe

/// A search field's view model: what the user types in, the results of a search out. A search
/// starts only once the typing pauses for `quiet` (`debounce`), never twice in a row for the same
/// text (`removeDuplicates`), and a newer query cancels the search still running for an older one:
/// only the newest query's results are shown.
///
/// Every sequence of it is probed into `recorder` (`keys`, `text`, `queries`, one `search` lane a
/// query, `results`), so pipesh can draw what it did: `draw "F.trace"` after
/// `recorder.write(toFile:)`, or `pipesh attach` while it runs.
public struct SearchField<Keys: AsyncSequence & Sendable, C: Clock>: Sendable
where Keys.Element == String, C.Duration == Duration {
  public let keys: Keys
  public let quiet: Duration
  public let clock: C
  public let recorder: ProbeRecorder
  /// The search itself (a server's, in an app): the results for one query.
  public let search: @Sendable (String) async throws -> String

  public init(
    keys: Keys, quiet: Duration, clock: C, recorder: ProbeRecorder,
    search: @escaping @Sendable (String) async throws -> String
  ) {
    self.keys = keys
    self.quiet = quiet
    self.clock = clock
    self.recorder = recorder
    self.search = search
  }

  /// The queries worth a search: the text so far, once the typing pauses, each new.
  public var queries: some AsyncSequence<String, any Error> & Sendable {
    keys.probe("keys", into: recorder)
      .reductions("") { text, key in text + key }.probe("text", into: recorder)
      .debounce(for: quiet, clock: clock).removeDuplicates().probe("queries", into: recorder)
  }

  /// The results of the newest query's search; a search a newer query overtook is cancelled and
  /// shows nothing.
  public var results: some AsyncSequence<String, Never> & Sendable {
    let results = AsyncChannel<String>()
    let (queries, recorder, search) = (self.queries, self.recorder, self.search)
    Task {
      var running: Task<Void, Never>?
      do {
        for try await query in queries {
          running?.cancel()
          running = Task {
            let answer = AsyncStream<String> { continuation in
              let task = Task {
                if let found = try? await search(query) { continuation.yield(found) }
                continuation.finish()
              }
              continuation.onTermination = { _ in task.cancel() }
            }
            for await found in answer.probe("search", into: recorder) where !Task.isCancelled {
              await results.send(found)
            }
          }
        }
      } catch {}
      await running?.value
      results.finish()
    }
    return results.probe("results", into: recorder)
  }
}
