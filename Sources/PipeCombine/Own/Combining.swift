import OpenCombine
import PipeSema

/// The subscription of an own publisher with several inputs (`MergeMany`, `CombineLatestMany`): it
/// subscribes to each input, passes the subscriber's demand on to all of them, and on a failure
/// or a cancellation cancels them all. What an input's element or end means is the publisher's.
class Combining<Output>: Subscription {
  let outbox: Outbox<Output>
  private var subscriptions: [Subscription?]
  private(set) var finished: [Bool]

  init<Downstream: Subscriber>(_ downstream: Downstream, inputs: Int)
  where Downstream.Input == Output, Downstream.Failure == any Error {
    outbox = Outbox(downstream)
    subscriptions = Array(repeating: nil, count: inputs)
    finished = Array(repeating: false, count: inputs)
  }

  /// Subscribes to the inputs, then hands the subscriber this subscription.
  func start(_ inputs: [AnyPublisher<Value, any Error>]) {
    for (index, input) in inputs.enumerated() {
      input.subscribe(Side(owner: self, index: index))
    }
    outbox.open(self)
  }

  func request(_ demand: Subscribers.Demand) {
    outbox.requested(demand)
    for subscription in subscriptions { subscription?.request(demand) }
  }

  func cancel() {
    outbox.close()
    cancelInputs()
  }

  private func cancelInputs() {
    let all = subscriptions
    subscriptions = subscriptions.map { _ in nil }
    for subscription in all { subscription?.cancel() }
  }

  /// An input sent an element.
  func received(_ value: Value, from index: Int) {}

  /// An input finished; by default the publisher finishes once all have.
  func inputFinished(_ index: Int) {
    if finished.allSatisfy({ $0 }) { outbox.finish() }
  }

  /// An input failed: the publisher fails with its error and cancels the others.
  private func inputFailed(_ error: any Error) {
    outbox.fail(error)
    cancelInputs()
  }

  /// One input's subscriber.
  private struct Side: Subscriber {
    let owner: Combining
    let index: Int
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: Subscription) {
      guard !owner.outbox.isClosed else { return subscription.cancel() }
      owner.subscriptions[index] = subscription
    }

    func receive(_ input: Value) -> Subscribers.Demand {
      guard !owner.outbox.isClosed else { return .none }
      owner.received(input, from: index)
      return .none
    }

    func receive(completion: Subscribers.Completion<any Error>) {
      guard !owner.outbox.isClosed else { return }
      owner.subscriptions[index] = nil
      switch completion {
      case .finished:
        owner.finished[index] = true
        owner.inputFinished(index)
      case .failure(let error): owner.inputFailed(error)
      }
    }
  }
}
