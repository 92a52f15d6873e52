import Locking
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
}

/// A sequence recorded by a probe (`probe(_:into:describing:)`).
public struct ProbedSequence<Base: AsyncSequence>: AsyncSequence {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  let base: Base
  let name: String
  let recorder: ProbeRecorder
  let describing: @Sendable (Element) -> String

  public func makeAsyncIterator() -> Iterator {
    let lane = Lane(recorder: recorder, number: recorder.lane(named: name))
    lane.record(.start)
    return Iterator(base: base.makeAsyncIterator(), lane: lane, describing: describing)
  }

  public struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let lane: Lane
    let describing: @Sendable (Element) -> String

    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      guard lane.record(.asked) else { return try await base.next(isolation: actor) }
      do {
        guard let element = try await base.next(isolation: actor) else {
          lane.end(Task.isCancelled ? .cancelled("its task was cancelled") : .finished)
          return nil
        }
        lane.record(.element(Self.cut(describing(element))))
        return element
      } catch {
        lane.end(
          Task.isCancelled || error is CancellationError
            ? .cancelled("its task was cancelled") : .failed(Self.cut(String(describing: error))))
        throw error
      }
    }

    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    static func cut(_ text: String) -> String {
      text.count <= ProbeRecorder.longestDescription
        ? text : String(text.prefix(ProbeRecorder.longestDescription - 1)) + "…"
    }
  }

  /// One iteration's lane: ended once, and cancelled when dropped before its end.
  final class Lane: Sendable {
    let recorder: ProbeRecorder
    let number: Int
    private let ended = Locked(false)

    init(recorder: ProbeRecorder, number: Int) {
      self.recorder = recorder
      self.number = number
    }

    /// Records `kind` unless the lane has ended: whether it did.
    @discardableResult
    func record(_ kind: TraceFile.EventKind) -> Bool {
      guard !ended.withLock({ $0 }) else { return false }
      recorder.record(kind, lane: number)
      return true
    }

    func end(_ kind: TraceFile.EventKind) {
      guard
        !ended.withLock({ ended in
          defer { ended = true }; return ended
        })
      else { return }
      recorder.record(kind, lane: number)
    }

    deinit {
      end(.cancelled("its consumer stopped asking before its end"))
    }
  }
}

extension ProbedSequence: Sendable where Base: Sendable {}
