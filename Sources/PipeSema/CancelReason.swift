/// Why a node was cancelled, in the words `draw`, `inspect`, `trace` and `expect … ends` use
/// (SPEC section 12): one list, so that `expect` refuses a reason no node can have.
public enum CancelReason: String, CaseIterable, Sendable {
  /// Its consumer finished (or, a sink, stopped asking once it had what it needs).
  case downstreamFinished = "downstream finished"
  /// Its consumer failed.
  case downstreamFailed = "downstream failed"
  /// Its consumer was cancelled.
  case downstreamCancelled = "downstream cancelled"
  /// Someone cancelled the job (`cancel`, Ctrl-C).
  case jobCancelled = "job cancelled"
  /// `flatMapLatest` moved on to a newer element.
  case newerElement = "newer element"
  /// Another input of the combinator it feeds finished, which ends the combinator (`zip`).
  case siblingFinished = "sibling finished"
  /// Another input of the combinator it feeds failed.
  case siblingFailed = "sibling failed"
  /// A `share` whose last reader stopped asking.
  case noReadersLeft = "no readers left"
}
