import Locking

/// A continuation that resumes once, whether the resume or the store comes first.
final class ContinuationBox: Sendable {
  private let state = Locked<(continuation: UnsafeContinuation<Void, Never>?, resumed: Bool)>((nil, false))

  func store(_ continuation: UnsafeContinuation<Void, Never>) {
    let resumeNow = state.withLock { state -> Bool in
      if state.resumed { return true }
      state.continuation = continuation
      return false
    }
    if resumeNow { continuation.resume() }
  }

  func resume() {
    let continuation = state.withLock { state -> UnsafeContinuation<Void, Never>? in
      state.resumed = true
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume()
  }
}

/// A throwing continuation resumed by whichever comes first: the result or cancellation.
final class OnceContinuation: Sendable {
  private let state = Locked<
    (continuation: UnsafeContinuation<String?, any Error>?, early: Result<String?, any Error>?)
  >(
    (nil, nil))

  /// Keeps the continuation, or resumes it at once with what came first; true when kept.
  @discardableResult
  func store(_ continuation: UnsafeContinuation<String?, any Error>) -> Bool {
    let early = state.withLock { state -> Result<String?, any Error>? in
      if let early = state.early { return early }
      state.continuation = continuation
      return nil
    }
    guard let early else { return true }
    continuation.resume(with: early)
    return false
  }

  /// Resumes with `result` unless something came first; true when this was the first.
  @discardableResult
  func resume(with result: Result<String?, any Error>) -> Bool {
    let (first, continuation) = state.withLock { state -> (Bool, UnsafeContinuation<String?, any Error>?) in
      guard state.early == nil else { return (false, nil) }
      state.early = result
      defer { state.continuation = nil }
      return (true, state.continuation)
    }
    continuation?.resume(with: result)
    return first
  }
}
