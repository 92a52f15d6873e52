import Locking
import PipeSema

extension Operators {
  /// `share`: lets several consumers iterate one upstream; in a let fragment, every use sees the same elements.
  enum Share {
    static func run() -> Run {
      // AA's share, with a teardown that ends it: Workarounds/ShareTornDownWhileAsking.swift.
      .node(build: { input in
        let ledger = ShareLedger()
        input.shareLedger.withLock { $0 = ledger }
        return ValueSequence(StoppableShare(upstream: input.upstream, ledger: ledger))
      })
    }
  }
}

/// What a `share` holds for its consumers, kept beside swift-async-algorithms' own buffer (which
/// it does not show) by the same rule: a new consumer starts at the buffer's first element, and
/// the buffer lets go of what every current consumer has taken. With `.unbounded`, a consumer
/// slower than the others makes it grow (the lint `share-slow-consumer`).
public final class ShareLedger: Sendable {
  private struct State {
    /// Elements taken from the upstream.
    var pulled = 0
    /// The buffer's first element, counted from the upstream's first.
    var start = 0
    /// Each consumer's next element, counted the same way.
    var sides: [Int: Int] = [:]
    var nextSide = 0

    mutating func trim() {
      if let slowest = sides.values.min(), slowest > start { start = slowest }
    }
  }

  private let state = Locked(State())

  /// Elements the share holds that some current consumer has not taken yet.
  public var held: Int { state.withLock { $0.pulled - $0.start } }

  /// How many consumers iterate it now.
  public var consumers: Int { state.withLock { $0.sides.count } }

  func pulled() { state.withLock { $0.pulled += 1 } }

  /// A new consumer: it starts at the buffer's first element.
  func register() -> Int {
    state.withLock { state in
      defer { state.nextSide += 1 }
      state.sides[state.nextSide] = state.start
      return state.nextSide
    }
  }

  func took(_ side: Int) {
    state.withLock { state in
      // A reader that has gone takes nothing more.
      guard let position = state.sides[side] else { return }
      state.sides[side] = position + 1
      state.trim()
    }
  }

  func unregister(_ side: Int) {
    state.withLock { state in
      state.sides[side] = nil
      state.trim()
    }
  }
}
