import Locking

/// A value set once by a run's task and read by its caller after the run.
final class Box<T: Sendable>: Sendable {
  private let stored = Locked<T?>(nil)

  func set(_ value: T) { stored.withLock { $0 = value } }

  var value: T? { stored.withLock { $0 } }
}
