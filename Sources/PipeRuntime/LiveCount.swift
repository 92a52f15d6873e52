import Locking

/// How many of something are alive, with a way to wait until none is: the nodes of a job count
/// here from the moment they are built until their sequence and every iterator of it are gone.
public final class LiveCount: Sendable {
  private struct State {
    var count = 0
    var waiters: [UnsafeContinuation<Void, Never>] = []
  }

  private let state = Locked(State())

  public init() {}

  public var value: Int { state.withLock { $0.count } }

  func add() {
    state.withLock { $0.count += 1 }
  }

  func remove() {
    let waiters = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
      state.count -= 1
      guard state.count == 0 else { return [] }
      defer { state.waiters.removeAll() }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Returns once the count is zero.
  func waitUntilZero() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let zero = state.withLock { state -> Bool in
        if state.count == 0 { return true }
        state.waiters.append(continuation)
        return false
      }
      if zero { continuation.resume() }
    }
  }
}

/// One node's hold on its job's `LiveCount`: made when the node is built, shared by its sequence
/// and every iterator of it, and released with the last of them.
final class NodeLifetime: Sendable {
  private let count: LiveCount

  init(_ count: LiveCount) {
    self.count = count
    count.add()
    Node.live.add(1, ordering: .relaxed)
  }

  deinit {
    Node.live.subtract(1, ordering: .relaxed)
    count.remove()
  }
}
