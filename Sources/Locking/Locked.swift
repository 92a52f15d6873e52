#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a pthread mutex. pipesh uses it rather than `Synchronization.Mutex` because on
/// Linux that Mutex waits with raw futex calls that ThreadSanitizer cannot see, so every access it
/// guards would be reported as a race; a pthread mutex is one ThreadSanitizer understands.
///
/// The value and the mutex live in one allocation (a `ManagedBuffer` with the mutex as its one
/// element): a job holds a dozen of these, and an idle job's memory is counted in bytes.
/// Copies share the value, as references to one lock would.
public struct Locked<Value>: @unchecked Sendable {
  // @unchecked: the value is only touched between pthread_mutex_lock and pthread_mutex_unlock.
  @usableFromInline
  let storage: Storage

  public init(_ value: Value) {
    storage = Storage.make(value)
  }

  /// Runs `body` with the value, holding the lock.
  @inlinable
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    try storage.withUnsafeMutablePointers { value, mutex in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&value.pointee)
    }
  }

  @usableFromInline
  final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
    static func make(_ value: Value) -> Storage {
      let buffer = Storage.create(minimumCapacity: 1) { _ in value }
      // `create` is declared to return the base class; it makes an instance of the class it is
      // called on.
      let storage = unsafeDowncast(buffer, to: Storage.self)
      _ = storage.withUnsafeMutablePointerToElements { pthread_mutex_init($0, nil) }
      return storage
    }

    deinit {
      // The header (the value) is destroyed by ManagedBuffer; the element is only the mutex.
      _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
    }
  }
}
