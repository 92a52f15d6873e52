#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a pthread mutex. pipesh uses it rather than `Synchronization.Mutex` because on
/// Linux that Mutex waits with raw futex calls that ThreadSanitizer cannot see, so every access it
/// guards would be reported as a race; a pthread mutex is one ThreadSanitizer understands.
public final class Locked<Value>: @unchecked Sendable {
  // @unchecked: `value` is only touched between pthread_mutex_lock and pthread_mutex_unlock.
  private var value: Value
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  public init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the value, holding the lock.
  @inlinable
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body(&storage)
  }

  @usableFromInline
  var storage: Value {
    get { value }
    _modify { yield &value }
  }

  @usableFromInline
  func lock() { pthread_mutex_lock(mutex) }

  @usableFromInline
  func unlock() { pthread_mutex_unlock(mutex) }
}
