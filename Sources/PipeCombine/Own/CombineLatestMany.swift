import OpenCombine
import PipeSema

/// `Publishers.CombineLatest` / `CombineLatest3`, which OpenCombine 0.14.0 lacks, to Apple's
/// documentation: "The combined publisher doesn't produce elements until each of its upstream
/// publishers publishes at least one element." Then each element of any input sends the latest
/// of all. "It implements this by using a buffer size of 1 for each upstream, and holds the
/// most-recent value in each buffer" (so without demand only the latest combination waits). "All
/// upstream publishers need to finish for this publisher to finish." "If any of the combined
/// publishers terminates with a failure, this publisher also fails."
struct CombineLatestMany: Publisher {
  typealias Output = [Value]
  typealias Failure = any Error

  let inputs: [AnyPublisher<Value, any Error>]

  init(_ inputs: [AnyPublisher<Value, any Error>]) {
    self.inputs = inputs
  }

  func receive<Downstream: Subscriber>(subscriber: Downstream)
  where Downstream.Input == [Value], Downstream.Failure == any Error {
    Latest(subscriber, inputs: inputs.count).start(inputs)
  }

  private final class Latest: Combining<[Value]> {
    private lazy var latest: [Value?] = finished.map { _ in nil }

    override func received(_ value: Value, from index: Int) {
      latest[index] = value
      let all = latest.compactMap { $0 }
      guard all.count == latest.count else { return }
      // A buffer of one: a combination nobody asked for yet is replaced by the newer one.
      if outbox.isWaiting { outbox.replaceLast(all) } else { outbox.send(all) }
    }
  }
}
