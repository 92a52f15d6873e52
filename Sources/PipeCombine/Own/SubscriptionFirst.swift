import OpenCombine
import PipeSema

/// Puts a publisher's subscription before its completion. OpenCombine 0.14.0's `Zip` (and the
/// combinators of its kind) complete a subscriber during `subscribe` when an input ends as it is
/// subscribed to (`zip(empty, from 1)`), before handing it its subscription; Combine's contract
/// wants the subscription first, and OpenCombine's own operators downstream (`filter`,
/// `compactMap`, `prefix(while:)`, `removeDuplicates`) trap on the other order. This hands the
/// subscriber a subscription first, then the completion, and cancels a subscription that comes
/// after the end. Like the other own publishers it runs only on compare's single-threaded
/// scheduler.
struct SubscriptionFirst: Publisher {
  typealias Output = Value
  typealias Failure = any Error

  let upstream: AnyPublisher<Value, any Error>

  func receive<Downstream: Subscriber>(subscriber: Downstream)
  where Downstream.Input == Value, Downstream.Failure == any Error {
    upstream.subscribe(Inner(AnySubscriber(subscriber)))
  }

  private final class Inner: Subscriber, Subscription {
    private var downstream: AnySubscriber<Value, any Error>?
    private var upstream: Subscription?
    /// Whether the downstream has its subscription (this object).
    private var subscribed = false
    /// Whether the downstream got its completion, or cancelled: a later subscription is cancelled.
    private var ended = false
    let combineIdentifier = CombineIdentifier()

    init(_ downstream: AnySubscriber<Value, any Error>) {
      self.downstream = downstream
    }

    func receive(subscription: Subscription) {
      guard !ended, upstream == nil else { return subscription.cancel() }
      upstream = subscription
      subscribeDownstream()
    }

    func receive(_ input: Value) -> Subscribers.Demand {
      guard !ended else { return .none }
      subscribeDownstream()
      return downstream?.receive(input) ?? .none
    }

    func receive(completion: Subscribers.Completion<any Error>) {
      guard !ended else { return }
      subscribeDownstream()
      ended = true
      let downstream = self.downstream
      self.downstream = nil
      upstream = nil
      downstream?.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
      upstream?.request(demand)
    }

    func cancel() {
      ended = true
      downstream = nil
      let upstream = self.upstream
      self.upstream = nil
      upstream?.cancel()
    }

    private func subscribeDownstream() {
      guard !subscribed else { return }
      subscribed = true
      downstream?.receive(subscription: self)
    }
  }
}
