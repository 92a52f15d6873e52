import OpenCombine
import PipeSema

/// `collect(.byTimeOrCount(scheduler, interval, count))` (`Publishers.CollectByTime`), which
/// OpenCombine 0.14.0 lacks, to Apple's documentation: "A grouping that collects and publishes
/// items periodically or when a buffer reaches a maximum size." The period is a repeating action
/// on the scheduler from the subscription on; a period with nothing collected publishes nothing;
/// when the input finishes, what was collected goes out before the end; a failure goes out at
/// once (what was collected is dropped).
struct CollectByTimeOrCount: Publisher {
  typealias Output = [Value]
  typealias Failure = any Error

  let upstream: AnyPublisher<Value, any Error>
  let scheduler: VirtualScheduler
  let interval: VirtualScheduler.SchedulerTimeType.Stride
  let count: Int

  func receive<Downstream: Subscriber>(subscriber: Downstream)
  where Downstream.Input == [Value], Downstream.Failure == any Error {
    let collecting = Collecting(outbox: Outbox(subscriber), count: count)
    upstream.subscribe(collecting)
    collecting.timer = scheduler.schedule(after: scheduler.now.advanced(by: interval), interval: interval) {
      [weak collecting] in collecting?.publish()
    }
    collecting.outbox.open(collecting)
  }

  private final class Collecting: Subscriber, Subscription {
    let outbox: Outbox<[Value]>
    let count: Int
    var timer: Cancellable?
    private var subscription: Subscription?
    private var collected: [Value] = []

    init(outbox: Outbox<[Value]>, count: Int) {
      self.outbox = outbox
      self.count = count
    }

    func receive(subscription: Subscription) {
      self.subscription = subscription
    }

    func receive(_ input: Value) -> Subscribers.Demand {
      guard !outbox.isClosed else { return .none }
      collected.append(input)
      if collected.count >= count { publish() }
      return .none
    }

    func receive(completion: Subscribers.Completion<any Error>) {
      subscription = nil
      timer?.cancel()
      switch completion {
      case .finished:
        publish()
        outbox.finish()
      case .failure(let error):
        collected.removeAll()
        outbox.fail(error)
      }
    }

    func publish() {
      guard !collected.isEmpty else { return }
      outbox.send(collected)
      collected.removeAll()
    }

    func request(_ demand: Subscribers.Demand) {
      outbox.requested(demand)
      // Each group needs up to `count` elements.
      subscription?.request(demand == .unlimited ? .unlimited : demand * count)
    }

    func cancel() {
      outbox.close()
      timer?.cancel()
      subscription?.cancel()
      subscription = nil
    }
  }
}
