import OpenCombine
import PipeSema

/// A `PassthroughSubject` that sends to its subscribers in the order they subscribed.
/// OpenCombine's keeps them in a `Set`, so which of two subscribers gets an element (or the end)
/// first changes from run to run; `compare` needs the same table on every run, so its `share` is
/// OpenCombine's `multicast(subject:)` and `autoconnect()`, exactly what `share()` is, over this
/// subject. Like `PassthroughSubject` (whose code this follows) it asks its upstream for everything
/// once a subscriber has asked for something, sends an element only to subscribers that asked for
/// one, and gives a subscriber that comes after the end just the end. It runs only on `compare`'s virtual scheduler, one action at a time: no lock.
final class OrderedSubject: Subject {
  typealias Output = Value
  typealias Failure = any Error

  private var conduits: [Conduit] = []
  private var completion: Subscribers.Completion<any Error>?
  private var upstreams: [Subscription] = []
  private var hasDemand = false

  func send(subscription: Subscription) {
    upstreams.append(subscription)
    if hasDemand { subscription.request(.unlimited) }
  }

  /// A subscriber asked for elements: from now on the upstream is asked for all of them.
  private func demanded() {
    guard !hasDemand else { return }
    hasDemand = true
    for upstream in upstreams { upstream.request(.unlimited) }
  }

  func send(_ value: Value) {
    guard completion == nil else { return }
    for conduit in conduits { conduit.offer(value) }
  }

  func send(completion: Subscribers.Completion<any Error>) {
    guard self.completion == nil else { return }
    self.completion = completion
    let all = conduits
    conduits.removeAll()
    for conduit in all { conduit.finish(completion) }
  }

  func receive<Downstream: Subscriber>(subscriber: Downstream)
  where Downstream.Input == Value, Downstream.Failure == any Error {
    let conduit = Conduit(
      AnySubscriber(subscriber), demanded: { [weak self] in self?.demanded() },
      cancelled: { [weak self] conduit in self?.conduits.removeAll { $0 === conduit } })
    subscriber.receive(subscription: conduit)
    if let completion {
      conduit.finish(completion)
    } else {
      conduits.append(conduit)
    }
  }

  /// One subscriber: its demand, and what it has been sent.
  private final class Conduit: Subscription {
    private var downstream: AnySubscriber<Value, any Error>?
    private var demand = Subscribers.Demand.none
    private let demanded: () -> Void
    private let cancelled: (Conduit) -> Void

    init(
      _ downstream: AnySubscriber<Value, any Error>, demanded: @escaping () -> Void,
      cancelled: @escaping (Conduit) -> Void
    ) {
      self.downstream = downstream
      self.demanded = demanded
      self.cancelled = cancelled
    }

    func offer(_ value: Value) {
      guard demand > 0, let downstream else { return }
      demand -= 1
      demand += downstream.receive(value)
    }

    func finish(_ completion: Subscribers.Completion<any Error>) {
      let downstream = downstream
      self.downstream = nil
      downstream?.receive(completion: completion)
    }

    func request(_ more: Subscribers.Demand) {
      guard downstream != nil else { return }
      demand += more
      demanded()
    }

    func cancel() {
      downstream = nil
      cancelled(self)
    }
  }
}
