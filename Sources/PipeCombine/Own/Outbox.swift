import OpenCombine
import PipeSema

/// The downstream end of an own publisher: what is sent waits here until the subscriber has asked
/// for it, and the end is passed on once everything before it is out. The own publishers run only
/// on the virtual scheduler of `compare`, where every action happens on the thread of
/// `VirtualScheduler.run(until:)`, one at a time; this state needs no lock there.
final class Outbox<Output> {
  /// Where the box stands.
  private enum State {
    /// Sending on request.
    case open
    /// The input ended: the end goes out after the queued elements.
    case ending(Subscribers.Completion<any Error>)
    /// The end went out, or the subscriber cancelled: nothing more is sent.
    case closed
  }

  private var downstream: AnySubscriber<Output, any Error>?
  private var demand = Subscribers.Demand.none
  private var queue: [Output] = []
  private var state = State.open
  private var delivering = false

  init<Downstream: Subscriber>(_ downstream: Downstream)
  where Downstream.Input == Output, Downstream.Failure == any Error {
    self.downstream = AnySubscriber(downstream)
  }

  var isClosed: Bool {
    if case .closed = state { return true }
    return false
  }

  /// Hands the subscriber its subscription.
  func open(_ subscription: Subscription) {
    downstream?.receive(subscription: subscription)
  }

  /// The subscriber asked for more.
  func requested(_ more: Subscribers.Demand) {
    demand += more
    deliver()
  }

  /// Queues an element, sent when asked for.
  func send(_ value: Output) {
    guard case .open = state else { return }
    queue.append(value)
    deliver()
  }

  /// Ends normally, after the queued elements.
  func finish() {
    guard case .open = state else { return }
    state = .ending(.finished)
    deliver()
  }

  /// Ends with a failure at once: queued elements are dropped, as Combine's operators drop them.
  func fail(_ error: any Error) {
    guard case .open = state else { return }
    queue.removeAll()
    state = .ending(.failure(error))
    deliver()
  }

  /// The subscriber cancelled: nothing more goes out.
  func close() {
    state = .closed
    queue.removeAll()
    downstream = nil
  }

  /// Whether elements wait for the subscriber's demand.
  var isWaiting: Bool { !queue.isEmpty }

  private func deliver() {
    // A subscriber may ask for more from inside receive(_:): the outer loop goes on then.
    guard !delivering else { return }
    delivering = true
    defer { delivering = false }
    while demand > 0, !queue.isEmpty, let downstream {
      demand -= 1
      demand += downstream.receive(queue.removeFirst())
    }
    if queue.isEmpty, case .ending(let completion) = state {
      let downstream = downstream
      close()
      downstream?.receive(completion: completion)
    }
  }
}

extension Outbox {
  /// Replaces the element waiting last (a buffer of one keeps only the newest).
  func replaceLast(_ value: Output) {
    guard !queue.isEmpty else { return send(value) }
    queue[queue.count - 1] = value
  }
}
