import AsyncAlgorithms
import MarbleDiagrams
import PipeSema

extension Operators {
  /// `random`: emits random integers in LO…HI, forever or N of them; a seed makes them repeatable.
  enum Random {
    static func run(low: Int, high: Int, count: Int?, seed: Int?) -> Run {
      .node(
        build: { input in
          ValueSequence(
            RandomSequence(
              low: low, high: high, count: count,
              seed: seed
            ))
        })
    }
  }
}

/// `random LO HI [count:] [seed:]`: SplitMix64 when seeded, the system generator otherwise.
struct RandomSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let low: Int
  let high: Int
  let count: Int?
  let seed: Int?

  func makeAsyncIterator() -> Iterator {
    Iterator(
      low: low, high: high, remaining: count, generator: seed.map { SplitMix64(seed: UInt64(bitPattern: Int64($0))) })
  }

  struct Iterator: AsyncIteratorProtocol {
    let low: Int
    let high: Int
    var remaining: Int?
    var generator: SplitMix64?

    mutating func next() async -> Value? {
      if let left = remaining {
        guard left > 0 else { return nil }
        remaining = left - 1
      }
      if Task.isCancelled { return nil }
      guard var seeded = generator else { return .int(Int.random(in: low...high)) }
      defer { generator = seeded }
      return .int(Int.random(in: low...high, using: &seeded))
    }
  }
}
