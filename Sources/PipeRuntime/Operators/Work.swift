import PipeSema
import VirtualTime

extension Operators {
  /// `work`: waits INTERVAL for each element, then passes it on; the next one is asked for after.
  enum Work {
    static func run(interval: Duration, cooperative: Bool) -> Run {
      .node(
        build: { input in
          let clock = input.clock
          let interval = interval
          guard cooperative else {
            return ValueSequence(
              StubbornWorkSequence(
                base: input.upstream, interval: interval, context: input.context, nodeID: input.nodeID))
          }
          // The stdlib's async map awaits its transform before asking its upstream again: the
          // `for await command in queue { await handle(command) }` loop, back pressure included.
          return ValueSequence(
            input.upstream.map { value in
              try await clock.sleep(for: interval)
              return value
            })
        })
    }
  }
}

/// `work INTERVAL cooperative: false`: the same loop, but its wait ignores cancellation, as work
/// that never checks it does. Cancelled while it waits, it finishes the wait and hands the element
/// on, then ends at its next ask (it never asks its input again once cancelled), so its job ends
/// one wait late. The hand-off is recorded for the lint `ignored-cancellation`.
struct StubbornWorkSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let base: ValueSequence
  let interval: Duration
  let context: JobContext
  let nodeID: Int

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), interval: interval, context: context, nodeID: nodeID)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: ValueSequence.Iterator
    let interval: Duration
    let context: JobContext
    let nodeID: Int

    mutating func next() async throws -> Value? {
      // Once cancelled it takes nothing more: the wait it ignores is the one it was in.
      if Task.isCancelled || context.cancelRequested { throw CancellationError() }
      guard let value = try await base.next() else { return nil }
      let clock = context.clock
      let began = clock.now
      context.ignoringWait(nodeID, true)
      await clock.sleepIgnoringCancellation(until: began.advanced(by: interval))
      context.ignoringWait(nodeID, false)
      if Task.isCancelled || context.cancelRequested {
        context.handedOnAfterCancel(
          LateHandOff(nodeID: nodeID, value: value, waitBegan: began.offset, handedAt: clock.now.offset))
      }
      return value
    }
  }
}
