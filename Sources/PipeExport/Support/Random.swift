import AsyncAlgorithms
import Foundation

/// pipesh's `random`: integers in a range, forever or `count` of them; a seed makes them repeatable
/// (SplitMix64, as pipesh).
struct RandomIntegers: AsyncSequence, Sendable {
  let range: ClosedRange<Int>
  let count: Int?
  let seed: Int?

  func makeAsyncIterator() -> Iterator {
    let generator = seed.map { SplitMix64(state: UInt64(bitPattern: Int64($0))) }
    return Iterator(range: range, remaining: count, generator: generator)
  }

  struct Iterator: AsyncIteratorProtocol {
    let range: ClosedRange<Int>
    var remaining: Int?
    var generator: SplitMix64?

    mutating func next() async -> Int? {
      if let left = remaining {
        guard left > 0 else { return nil }
        remaining = left - 1
      }
      guard !Task.isCancelled else { return nil }
      guard var seeded = generator else { return Int.random(in: range) }
      defer { generator = seeded }
      return Int.random(in: range, using: &seeded)
    }
  }
}

struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
