import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `buffer`: lets the input run ahead of a slow consumer by up to N elements.
  enum Buffer {
    static func run(size: BufferSize, policy: BufferPolicy) -> Run {
      .node(
        build: { input in
          let limit: AsyncBufferSequencePolicy
          switch (size, policy) {
          case (.count(let count), .newest): limit = .bufferingLatest(count)
          case (.count(let count), .oldest): limit = .bufferingOldest(count)
          case (.count(let count), .bounded): limit = .bounded(count)
          case (.unbounded, _): limit = .unbounded
          }
          return ValueSequence(CancellingWhenDropped(base: input.upstream.buffer(policy: limit)))
        })
    }
  }
}
