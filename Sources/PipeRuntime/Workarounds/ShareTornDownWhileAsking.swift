import AsyncAlgorithms
import Locking
import PipeSema

// swift-async-algorithms 1.1.4: `share()` torn down while its iteration task is not waiting.
//
// What AA does: the share's iteration task loops `iterate()` (wait for demand), the upstream's
// `next()`, `emit`. Its teardown (`Iteration.cancel()`, when the shared sequence goes) marks the
// task cancelled and resumes the demand continuation only if the task already waits on it. When
// the teardown lands while the task is anywhere else (inside the upstream's `next()`, or between
// handing over an element and waiting again), the task comes back to `iterate()`, which with
// `bufferingPolicy: .unbounded` waits for demand without looking at the cancellation: it waits
// forever and keeps the upstream iterator (and the job) alive.
//
// Reproduction: `AsyncAlgorithmsCanaryTests.shareTornDownWhileItsTaskAsksKeepsItsUpstream` (the
// only consumer leaves while the task is inside an upstream that answers `nil` when cancelled: the
// upstream iterator is never released).
//
// Workaround: `StoppableShare`.
// - The upstream is seen through a `ShareGate`: once stopped, it throws instead of asking the
//   upstream, and its end is thrown too (the task's loop ends on a thrown error, never on `nil`;
//   consumers see the end as `nil` again).
// - Every iterator holds the shared sequence and lets go of its side first; when the last one
//   goes, the teardown stops the gate and either drops the sequence (the task is inside the
//   upstream's `next()`: the cancellation that dropping brings ends it, and the gate throws) or
//   asks it once more from a side of its own until the task has thrown (the task is waiting, or
//   about to wait, for demand: that question is the demand).
//
// To delete: when the canary reports that the known issue was not recorded, build
// `Operators.Share` on `input.upstream.share(bufferingPolicy: .unbounded)` directly, delete this
// file, and run the suite (`cancelled shares let go` and the share transcripts cover it).

/// swift-async-algorithms' `share()`, with a teardown that always ends its iteration task.
struct StoppableShare: AsyncSequence, Sendable {
  typealias Element = Value

  private let owner: Owner

  init(upstream: ValueSequence, ledger: ShareLedger) {
    let gate = ShareGate()
    owner = Owner(
      shared: GatedUpstream(base: upstream, gate: gate, ledger: ledger).share(bufferingPolicy: .unbounded),
      gate: gate, ledger: ledger)
  }

  func makeAsyncIterator() -> Iterator { Iterator(owner: owner) }

  final class Iterator: AsyncIteratorProtocol {
    private var side: ValueSequence.Iterator?
    private let owner: Owner
    /// This consumer's place in the share's ledger.
    private let ledgerSide: Int

    init(owner: Owner) {
      self.owner = owner
      side = owner.shared.makeAsyncIterator()
      ledgerSide = owner.ledger.register()
    }

    func next() async throws -> Value? {
      do {
        let value = try await side?.next()
        if value != nil { owner.ledger.took(ledgerSide) }
        return value
      } catch ShareEnd.finished {
        return nil
      }
    }

    deinit {
      // The side first, then (with the stored properties) the owner.
      side = nil
      owner.ledger.unregister(ledgerSide)
    }
  }

  /// Holds the shared sequence for every iterator; the last one to go starts the teardown.
  final class Owner: Sendable {
    let shared: ValueSequence
    private let gate: ShareGate
    let ledger: ShareLedger

    init<Shared: AsyncSequence & Sendable>(shared: Shared, gate: ShareGate, ledger: ShareLedger)
    where Shared.Element == Value {
      self.shared = ValueSequence(shared)
      self.gate = gate
      self.ledger = ledger
    }

    deinit {
      guard gate.stop() == .askOnceMore else { return }
      let shared = shared
      TaskBook.making(.shareWorkaround) {
        _ = Task {
          var poke = shared.makeAsyncIterator()
          // Buffered elements come first; the gate's `.stopped` ends the loop.
          while (try? await poke.next()) != nil {}
        }
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
  private let machine = Locked(ShareGateStateMachine())

  /// Before asking the upstream; false once stopped.
  func enter() -> Bool { machine.withLock { $0.enter() } == .ask }

  /// After the upstream answered; false when stopped meanwhile.
  func leave() -> Bool { machine.withLock { $0.leave() } == .pass }

  /// Stops the gate: whether the teardown must ask the share once more.
  func stop() -> ShareGateStateMachine.TeardownAction { machine.withLock { $0.stop() } }
}

/// The states of a `ShareGate`; holds no lock and causes no effect.
struct ShareGateStateMachine {
  private enum Place {
    /// Between two questions to the upstream: handing over, or waiting for demand.
    case waiting
    /// Inside the upstream's `next()`.
    case asking
    /// Torn down: the task's next question to the upstream throws.
    case stopped
  }

  enum AskAction {
    /// Ask the upstream.
    case ask
    /// Throw `ShareEnd.stopped` instead.
    case refuse
  }

  enum AnswerAction {
    /// Pass the upstream's answer on.
    case pass
    /// Throw `ShareEnd.stopped` instead.
    case refuse
  }

  enum TeardownAction {
    /// The task waits, or is about to wait, for demand: ask the share once more.
    case askOnceMore
    /// The task is inside the upstream, whose cancellation ends it, or has ended.
    case none
  }

  private var place = Place.waiting

  mutating func enter() -> AskAction {
    guard place == .waiting else { return .refuse }
    place = .asking
    return .ask
  }

  mutating func leave() -> AnswerAction {
    guard place == .asking else { return .refuse }
    place = .waiting
    return .pass
  }

  mutating func stop() -> TeardownAction {
    defer { place = .stopped }
    return place == .waiting ? .askOnceMore : .none
  }
}

/// The upstream as the share's iteration task sees it.
struct GatedUpstream: AsyncSequence, Sendable {
  typealias Element = Value
  let base: ValueSequence
  let gate: ShareGate
  let ledger: ShareLedger

  func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), gate: gate, ledger: ledger) }

  struct Iterator: AsyncIteratorProtocol {
    var base: ValueSequence.Iterator
    let gate: ShareGate
    let ledger: ShareLedger

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
      ledger.pulled()
      return value
    }
  }
}
