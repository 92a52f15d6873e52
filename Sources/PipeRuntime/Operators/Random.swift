import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `random`: emits random integers in LO…HI, forever or N of them; a seed makes them repeatable.
  enum Random {
    static let entry = Operator(
      OperatorSignature(
        "random", .source, usage: "random LO HI [count: N] [seed: S]",
        summary: "emits random integers in LO…HI, forever or N of them; a seed makes them repeatable",
        parameters: [
          .positional("low", .int, "the smallest value"), .positional("high", .int, "the largest value"),
          .labelled("count", .count, "how many (default: no end)"),
          .labelled("seed", .int, "a seed for repeatable values"),
        ],
        example: "random 1 6 count: 5 seed: 42", implementation: "own (RandomSequence, SplitMix64 when seeded)"
      ) { typing in
        if let low = typing.int("low"), let high = typing.int("high"), low > high {
          typing.error("LO (\(low)) must not be larger than HI (\(high))", at: "high")
          return nil
        }
        return .int
      },
      build: { input in
        ValueSequence(
          RandomSequence(
            low: try input.int("low"), high: try input.int("high"), count: input.optionalInt("count"),
            seed: input.optionalInt("seed")
          ))
      })
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

/// A small seedable generator, so `random … seed: S` repeats across runs and machines.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
