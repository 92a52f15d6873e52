import PipeSema

extension Operators {
  /// `spawn { PIPELINE }`: passes each element on, and runs the element's pipeline in an
  /// unstructured task nobody awaits or cancels. Its nodes are the `spawn` node's children (as a
  /// `flatMap`'s are), built in a context of their own: the job neither waits for them nor cancels
  /// them.
  enum Spawn {
    static func run(body: CheckedPipeline) -> Run {
      .node(
        build: { input in
          ValueSequence(SpawnSequence(upstream: input.upstream, body: ElementBody(body, input, outlivesTheJob: true)))
        })
    }
  }
}

struct SpawnSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let upstream: ValueSequence
  let body: ElementBody

  func makeAsyncIterator() -> Iterator { Iterator(upstream: upstream.makeAsyncIterator(), body: body) }

  struct Iterator: AsyncIteratorProtocol {
    var upstream: ValueSequence.AsyncIterator
    let body: ElementBody

    mutating func next() async throws -> Value? {
      guard let element = try await upstream.next() else { return nil }
      let pipeline = body.sequence(for: element)
      // An unstructured task, recorded as one meant to outlive its job; what it throws is lost,
      // as a `Task { }` nobody awaits loses it.
      TaskBook.making(.spawn) {
        _ = Task {
          for try await _ in pipeline {}
        }
      }
      return element
    }
  }
}
