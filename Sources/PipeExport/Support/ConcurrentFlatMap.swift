import AsyncAlgorithms

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// pipesh's `flatMap { … } concurrency: N` (Combine's `flatMap(maxPublishers: .max(N))`):
  /// up to `limit` inner sequences at once, as child tasks of a task group, their elements as
  /// they come; the first error ends it, and cancelling the consumer cancels the group.
  fileprivate func flatMap<Inner: AsyncSequence & Sendable>(
    concurrency limit: Int, _ transform: @escaping @Sendable (Element) async throws -> Inner
  ) -> AsyncThrowingStream<Inner.Element, any Error> where Inner.Element: Sendable {
    AsyncThrowingStream { continuation in
      let group = Task {
        do {
          try await withThrowingTaskGroup(of: Void.self) { group in
            var running = 0
            for try await element in self {
              if running == limit {
                try await group.next()
                running -= 1
              }
              let inner = try await transform(element)
              group.addTask {
                for try await value in inner { continuation.yield(value) }
              }
              running += 1
            }
            try await group.waitForAll()
          }
          continuation.finish()
        } catch {
          continuation.finish(throwing: error)
        }
      }
      continuation.onTermination = { _ in group.cancel() }
    }
  }
}
