import AsyncAlgorithms
import Locking
import PipeSema

extension Operators {
  /// `share`: lets several consumers iterate one upstream; in a let fragment, every use sees the same elements.
  enum Share {
    static func run() -> Run {
      .node(
        build: { input in ValueSequence(StoppableShare(upstream: input.upstream)) })
    }
  }
}

/// swift-async-algorithms' `share()`, with a teardown that always ends its iteration task.
///
/// In 1.1.4 the iteration task waits for demand on a continuation that only a consumer's `next()`,
/// a new element or the shared sequence's `deinit` resume; when that `deinit` lands while the
/// task is between handing over an element and waiting again, the task then waits forever and
/// keeps the upstream iterator (and the job) alive. So here:
/// - the upstream is seen through a `ShareGate`: once stopped, it throws instead of asking the
///   upstream, and its end is thrown too (the task's loop ends on a thrown error, never on `nil`;
///   consumers see the end as `nil` again);
/// - every iterator holds the shared sequence and lets go of its side first; when the last one
///   goes, the teardown stops the gate and either drops the sequence (the task is inside the
///   upstream's `next()`: the cancellation that dropping brings ends it) or asks it once more
///   from a side of its own until the task has thrown (the task is waiting, or about to wait,
///   for demand: that question is the demand).
struct StoppableShare: AsyncSequence, Sendable {
  typealias Element = Value

  private let owner: Owner

  init(upstream: ValueSequence) {
    let gate = ShareGate()
    owner = Owner(
      shared: GatedUpstream(base: upstream, gate: gate).share(bufferingPolicy: .unbounded), gate: gate)
  }

  func makeAsyncIterator() -> Iterator { Iterator(owner: owner) }

  final class Iterator: AsyncIteratorProtocol {
    private var side: ValueSequence.Iterator?
    private let owner: Owner

    init(owner: Owner) {
      self.owner = owner
      side = owner.shared.makeAsyncIterator()
    }

    func next() async throws -> Value? {
      do {
        return try await side?.next()
      } catch ShareEnd.finished {
        return nil
      }
    }

    deinit {
      // The side first, then (with the stored properties) the owner.
      side = nil
    }
  }

  /// Holds the shared sequence for every iterator; the last one to go starts the teardown.
  final class Owner: Sendable {
    let shared: ValueSequence
    private let gate: ShareGate

    init<Shared: AsyncSequence & Sendable>(shared: Shared, gate: ShareGate) where Shared.Element == Value {
      self.shared = ValueSequence(shared)
      self.gate = gate
    }

    deinit {
      guard gate.stop() == .waiting else { return }
      let shared = shared
      Task {
        var poke = shared.makeAsyncIterator()
        // Buffered elements come first; the gate's `.stopped` ends the loop.
        while (try? await poke.next()) != nil {}
      }
    }
  }
}

/// How the share's iteration task ends its loop: by a thrown error.
enum ShareEnd: Error {
  /// The upstream ended.
  case finished
  /// The share was torn down.
  case stopped
}

/// Where the share's iteration task is, as far as its upstream is concerned.
final class ShareGate: Sendable {
  enum Place {
    /// Between two questions to the upstream: handing over, or waiting for demand.
    case waiting
    /// Inside the upstream's `next()`.
    case asking
    /// Torn down: the task's next question to the upstream throws.
    case stopped
  }

  private let place = Locked(Place.waiting)

  /// Before asking the upstream; false once stopped.
  func enter() -> Bool {
    place.withLock { place in
      guard place == .waiting else { return false }
      place = .asking
      return true
    }
  }

  /// After the upstream answered; false when stopped meanwhile.
  func leave() -> Bool {
    place.withLock { place in
      guard place == .asking else { return false }
      place = .waiting
      return true
    }
  }

  /// Stops the gate; returns where the task was.
  func stop() -> Place {
    place.withLock { place in
      defer { place = .stopped }
      return place
    }
  }
}

/// The upstream as the share's iteration task sees it.
struct GatedUpstream: AsyncSequence, Sendable {
  typealias Element = Value
  let base: ValueSequence
  let gate: ShareGate

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), gate: gate) }

  struct Iterator: AsyncIteratorProtocol {
    var base: ValueSequence.Iterator
    let gate: ShareGate

    mutating func next() async throws -> Value? {
      guard gate.enter() else { throw ShareEnd.stopped }
      let value: Value?
      do {
        value = try await base.next()
      } catch {
        _ = gate.leave()
        throw error
      }
      guard gate.leave() else { throw ShareEnd.stopped }
      guard let value else { throw ShareEnd.finished }
      return value
    }
  }
}
