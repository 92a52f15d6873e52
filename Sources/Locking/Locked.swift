#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value behind a pthread mutex. pipesh uses it rather than `Synchronization.Mutex` because on
/// Linux that Mutex waits with raw futex calls that ThreadSanitizer cannot see, so every access it
/// guards would be reported as a race; a pthread mutex is one ThreadSanitizer understands.
///
/// The value and the mutex live in one allocation (a `ManagedBuffer` whose header holds the value
/// and whose one element is the mutex): a job holds a dozen of these, and an idle job's memory is
/// counted in bytes. Copies share the value, as references to one lock would.
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
    // The mutex first, then the value: nothing of the value is touched before the lock is held.
    let mutex = storage.withUnsafeMutablePointerToElements { $0 }
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try storage.withUnsafeMutablePointerToHeader { try body(&$0.pointee.value) }
  }

  /// The value, and a byte after it so the header is never empty: an empty header would share its
  /// address with the mutex, and ThreadSanitizer would take an access to `()` for one to the mutex.
  @usableFromInline
  struct Header {
    @usableFromInline var value: Value
    let nonEmpty: UInt8 = 0
  }

  @usableFromInline
  final class Storage: ManagedBuffer<Header, pthread_mutex_t> {
    static func make(_ value: Value) -> Storage {
      let buffer = Storage.create(minimumCapacity: 1) { _ in Header(value: value) }
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
