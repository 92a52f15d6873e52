import Locking
import PipeSema

// Shared by the workarounds that ask an iterator from a task other than its consumer's
// (`DebounceCancelledBeforeDemand.swift`): an `Asker` is one task per iterator, made at the first
// question and ended with the iteration, not a task per element; an `UpstreamStop` stops the
// upstreams it was given from outside an AA operator, which then answer `nil` and end the operator
// the way a finished upstream does.

/// An iterator asked from a task of its own, one question at a time: the task is made at the first
/// question (attributed to `kind`, in the asker's node) and lives until `stop()`, or until the
/// `Asker` goes.
final class Asker: Sendable {
  let core: AskerCore

  init(_ iterator: IteratorCell, kind: PipeshTask) {
    core = AskerCore(iterator, kind: kind)
  }

  deinit {
    core.stop(cancelling: false)
  }

  /// The iterator's next element, asked from the asker's task; nil once stopped.
  func ask() async throws -> Value? {
    try await core.ask()
  }
}

/// What an `Asker` shares with its task and with an `UpstreamStop`: not the `Asker` itself, so that
/// neither keeps it alive.
final class AskerCore: Sendable {
  private let machine = Locked(AskerStateMachine())
  /// Until its task takes it: a stopped core holds no iterator (an `UpstreamStop` keeps cores).
  private let iterator: Locked<IteratorCell?>
  private let kind: PipeshTask

  init(_ iterator: IteratorCell, kind: PipeshTask) {
    self.iterator = Locked(iterator)
    self.kind = kind
  }

  func ask() async throws -> Value? {
    let result = await withUnsafeContinuation { (answer: AskerStateMachine.Answer) in
      switch machine.withLock({ $0.ask(answer) }) {
      case .start:
        start()
      case .wake(let task):
        task.resume(returning: true)
      case .answer(let answer, let result):
        answer.resume(returning: result)
      case .none:
        break
      }
    }
    return try result.get()
  }

  /// Stops for good: a question in flight is answered nil, every later one too, and the task ends.
  /// With `cancelling`, the task is cancelled first (an upstream stopped while asked).
  func stop(cancelling: Bool) {
    let (answer, waiting, task) = machine.withLock { $0.stop() }
    iterator.withLock { $0 = nil }
    if cancelling { task?.cancel() }
    answer?.resume(returning: .success(nil))
    waiting?.resume(returning: false)
  }

  /// Cancels the task: the question in flight and every later one are asked cancelled (also when
  /// the task is not made yet: it is cancelled as it is made).
  func cancel() {
    machine.withLock { $0.cancel() }?.cancel()
  }

  private func start() {
    // Stopped before its first question reached here: that question was answered nil.
    guard
      let iterator = iterator.withLock({ cell in
        defer { cell = nil }; return cell
      })
    else { return }
    let task = TaskBook.making(kind) {
      Task { [machine, iterator] in
        while await withUnsafeContinuation({ (question: AskerStateMachine.Question) in
          if let go = machine.withLock({ $0.waitForQuestion(question) }) { question.resume(returning: go) }
        }) {
          let result: Result<Value?, any Error>
          do {
            result = .success(try await iterator.next())
          } catch {
            result = .failure(error)
          }
          machine.withLock { $0.answered() }?.resume(returning: result)
        }
      }
    }
    if case .cancel = machine.withLock({ $0.started(task) }) { task.cancel() }
  }
}

/// The states of an `AskerCore`; holds no lock and causes no effect.
struct AskerStateMachine {
  typealias Answer = UnsafeContinuation<Result<Value?, any Error>, Never>
  typealias Question = UnsafeContinuation<Bool, Never>

  enum AskAction {
    /// Make the task; it takes the question when it first waits.
    case start
    /// The task waits for a question: resume it.
    case wake(Question)
    /// Answer at once.
    case answer(Answer, Result<Value?, any Error>)
    case none
  }

  private var stopped = false
  private var made = false
  private(set) var task: Task<Void, Never>?
  /// The task, waiting for a question.
  private var waiting: Question?
  /// A question the task has not taken yet.
  private var pending = false
  /// Who waits for the answer to the question asked.
  private var answer: Answer?

  mutating func ask(_ answer: Answer) -> AskAction {
    guard !stopped else { return .answer(answer, .success(nil)) }
    // One question at a time (AsyncIteratorProtocol's contract): a second one is the caller's bug.
    guard self.answer == nil else { return .answer(answer, .failure(AskedTwice())) }
    self.answer = answer
    if let waiting {
      self.waiting = nil
      return .wake(waiting)
    }
    pending = true
    guard made else {
      made = true
      return .start
    }
    return .none
  }

  /// The task waits for a question: whether to go on (at once), or nil when it must wait.
  mutating func waitForQuestion(_ question: Question) -> Bool? {
    guard !stopped else { return false }
    guard !pending else {
      pending = false
      return true
    }
    waiting = question
    return nil
  }

  /// The task answered: who waits for it (nobody once stopped).
  mutating func answered() -> Answer? {
    defer { answer = nil }
    return answer
  }

  enum StartedAction {
    case cancel
    case none
  }

  /// The task was made: cancelled at once when stopped or cancelled meanwhile.
  mutating func started(_ task: Task<Void, Never>) -> StartedAction {
    self.task = task
    return stopped || cancelled ? .cancel : .none
  }

  /// Its task is to be cancelled: the one to cancel now, or nil when it is not made yet (then it is
  /// cancelled as it is made).
  mutating func cancel() -> Task<Void, Never>? {
    cancelled = true
    return task
  }

  private var cancelled = false

  mutating func stop() -> (Answer?, Question?, Task<Void, Never>?) {
    stopped = true
    pending = false
    defer { (answer, waiting) = (nil, nil) }
    return (answer, waiting, task)
  }
}

/// Two `next()` at once on one iterator.
struct AskedTwice: Error, CustomStringConvertible {
  var description: String { "an iterator was asked for its next element while a question was in flight" }
}

/// Whether the upstreams of an operator may still be asked: once stopped, each answers nil, its
/// question in flight too.
final class UpstreamStop: Sendable {
  private let state = Locked<(stopped: Bool, askers: [AskerCore])>((false, []))

  /// An asker of this upstream: stopped with it (at once, when it was stopped already).
  func asker(of iterator: IteratorCell) -> Asker {
    let asker = Asker(iterator, kind: .upstreamStop)
    let stopped = state.withLock { state -> Bool in
      if !state.stopped { state.askers.append(asker.core) }
      return state.stopped
    }
    if stopped { asker.core.stop(cancelling: true) }
    return asker
  }

  /// Stops for good, cancelling the questions in flight.
  func stop() {
    let askers = state.withLock { state -> [AskerCore] in
      state.stopped = true
      defer { state.askers = [] }
      return state.askers
    }
    for asker in askers { asker.stop(cancelling: true) }
  }
}

/// An upstream asked from a task `UpstreamStop` can cancel, and ended (`nil`) once stopped.
struct StoppableUpstream: AsyncSequence, Sendable {
  typealias Element = Value
  let base: ValueSequence
  let stop: UpstreamStop

  func makeAsyncIterator() -> Iterator {
    Iterator(asker: stop.asker(of: IteratorCell(base.makeAsyncIterator())))
  }

  struct Iterator: AsyncIteratorProtocol {
    let asker: Asker

    mutating func next() async throws -> Value? {
      let asker = asker
      return try await withTaskCancellationHandler {
        try await asker.ask()
      } onCancel: {
        // The operator's own task was cancelled (it is being torn down): so is the question.
        asker.core.cancel()
      }
    }
  }
}

/// An iterator that tasks take turns with: one `next()` at a time, each awaited before the next.
final class IteratorCell: @unchecked Sendable {
  // @unchecked: only one `next()` runs at a time, and each starts after the previous one ended.
  private var iterator: ValueSequence.Iterator

  init(_ iterator: ValueSequence.Iterator) {
    self.iterator = iterator
  }

  func next() async throws -> Value? {
    try await iterator.next()
  }
}
