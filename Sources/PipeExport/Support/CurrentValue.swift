/// pipesh's `subject NAME initial: V`, as Combine's `CurrentValueSubject` seen through `.values`:
/// every consumer gets the current value first, then each new one; one that falls behind gets
/// the newest. AsyncAlgorithms has none.
actor CurrentValue<Element: Sendable> {
  private var current: Element
  private var consumers: [Int: AsyncStream<Element>.Continuation] = [:]
  private var nextConsumer = 0
  private var finished = false

  init(_ initial: Element) {
    current = initial
  }

  /// Sets the current value and gives it to every consumer.
  func send(_ value: Element) {
    guard !finished else { return }
    current = value
    for consumer in consumers.values { consumer.yield(value) }
  }

  /// Ends every consumer; a later one gets nothing.
  func finish() {
    finished = true
    for consumer in consumers.values { consumer.finish() }
    consumers = [:]
  }

  /// A new consumer's elements: the current value, then each one sent.
  func values() -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Element.self, bufferingPolicy: .bufferingNewest(1))
    guard !finished else {
      continuation.finish()
      return stream
    }
    continuation.yield(current)
    nextConsumer += 1
    let id = nextConsumer
    consumers[id] = continuation
    continuation.onTermination = { _ in Task { await self.remove(id) } }
    return stream
  }

  private func remove(_ id: Int) {
    consumers[id] = nil
  }
}
