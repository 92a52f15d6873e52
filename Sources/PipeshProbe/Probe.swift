import TraceFormat

extension AsyncSequence {
  /// This sequence, recorded into `recorder` as a lane named `name`: each `next()` its consumer
  /// calls, each element (as `describing` says it, cut at `ProbeRecorder.longestDescription`), and
  /// its end: finished, failed with the error, or cancelled (its task was cancelled, or its
  /// consumer dropped it before its end). Each iteration is a lane of its own. Elements pass
  /// through unchanged, and so do errors.
  public func probe(
    _ name: String, into recorder: ProbeRecorder,
    describing: @escaping @Sendable (Element) -> String = { String(describing: $0) }
  ) -> ProbedSequence<Self> {
    ProbedSequence(base: self, name: name, recorder: recorder, describing: describing)
  }

  /// This sequence probed as `probe(_:into:describing:)` probes it, each element said by its
  /// `description`: read directly, without the runtime's dynamic casts that `String(describing:)`
  /// makes for every element (about a tenth of a probed chain of Ints' samples under perf). The
  /// same text, but for a type that is also `TextOutputStreamable` and writes itself otherwise than
  /// its `description` says (`String(describing:)` prefers `write(to:)`).
  public func probe(_ name: String, into recorder: ProbeRecorder) -> ProbedSequence<Self>
  where Element: CustomStringConvertible & SendableMetatype {
    ProbedSequence(base: self, name: name, recorder: recorder, describing: { $0.description })
  }
}

/// A sequence recorded by a probe (`probe(_:into:describing:)`).
public struct ProbedSequence<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  // Inlinable, so that a program's probes can be specialized for its element types (its module
  // compiles them) where the program calls them directly; behind the standard library's `map` and
  // `filter`, whose iterators a program does not specialize, they run generic (Docs/probe.md).
  @usableFromInline let base: Base
  @usableFromInline let name: String
  @usableFromInline let recorder: ProbeRecorder
  @usableFromInline let describing: @Sendable (Element) -> String

  @usableFromInline
  init(base: Base, name: String, recorder: ProbeRecorder, describing: @escaping @Sendable (Element) -> String) {
    self.base = base
    self.name = name
    self.recorder = recorder
    self.describing = describing
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let (number, name) = recorder.lane(named: name)
    let lane = ProbeLane(recorder: recorder, number: number, name: name)
    lane.record(.start)
    return Iterator(base: base.makeAsyncIterator(), lane: lane, describing: describing)
  }

  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let lane: ProbeLane
    @usableFromInline let describing: @Sendable (Element) -> String

    @usableFromInline
    init(base: Base.AsyncIterator, lane: ProbeLane, describing: @escaping @Sendable (Element) -> String) {
      self.base = base
      self.lane = lane
      self.describing = describing
    }

    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      guard lane.recordAsk() else { return try await base.next(isolation: actor) }
      do {
        guard let element = try await base.next(isolation: actor) else {
          lane.end(Task.isCancelled ? .cancelled("its task was cancelled") : .finished)
          return nil
        }
        lane.record(.element(ProbeRecorder.cut(describing(element))))
        return element
      } catch {
        lane.end(
          Task.isCancelled || error is CancellationError
            ? .cancelled("its task was cancelled") : .failed(ProbeRecorder.cut(String(describing: error))))
        throw error
      }
    }

    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }
  }
}

extension ProbedSequence: Sendable where Base: Sendable {}

/// One iteration's lane: ended once, and cancelled when dropped before its end. Its iterator's
/// alone, and asked one `next()` at a time (AsyncIteratorProtocol's contract), so `ended` needs no
/// lock: each event takes the recorder's lock only. Of any probed sequence, not a type nested in
/// the generic one: a probe running generic behind `map` then asks the runtime for no metadata.
@usableFromInline
final class ProbeLane {
  @usableFromInline let recorder: ProbeRecorder
  @usableFromInline let number: Int
  /// The recorder's number for the lane's name.
  @usableFromInline let name: Int
  @usableFromInline var ended = false

  @usableFromInline
  init(recorder: ProbeRecorder, number: Int, name: Int) {
    self.recorder = recorder
    self.number = number
    self.name = name
  }

  /// Records an ask unless the lane has ended: whether it did.
  @inlinable
  func recordAsk() -> Bool {
    guard !ended else { return false }
    recorder.recordAsk(lane: number, name: name)
    return true
  }

  /// Records `kind` unless the lane has ended: whether it did.
  @inlinable @discardableResult
  func record(_ kind: TraceFile.EventKind) -> Bool {
    guard !ended else { return false }
    recorder.record(kind, lane: number, name: name)
    return true
  }

  @inlinable
  func end(_ kind: TraceFile.EventKind) {
    guard !ended else { return }
    ended = true
    recorder.record(kind, lane: number, name: name)
  }

  deinit {
    end(.cancelled("its consumer stopped asking before its end"))
    recorder.laneEnded(number)
  }
}
