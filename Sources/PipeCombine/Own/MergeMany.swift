import OpenCombine
import PipeSema

/// `Publishers.MergeMany`, which OpenCombine 0.14.0 lacks, to Apple's documentation: "The merged
/// publisher continues to emit elements until all upstream publishers finish. If an upstream
/// publisher produces an error, the merged publisher fails with that error." Elements go out in
/// the order the inputs send them; what the subscriber has not asked for yet waits.
struct MergeMany: Publisher {
  typealias Output = Value
  typealias Failure = any Error

  let inputs: [AnyPublisher<Value, any Error>]

  init(_ inputs: [AnyPublisher<Value, any Error>]) {
    self.inputs = inputs
  }

  func receive<Downstream: Subscriber>(subscriber: Downstream)
  where Downstream.Input == Value, Downstream.Failure == any Error {
    Merging(subscriber, inputs: inputs.count).start(inputs)
  }

  private final class Merging: Combining<Value> {
    override func received(_ value: Value, from index: Int) {
      outbox.send(value)
    }
  }
}
