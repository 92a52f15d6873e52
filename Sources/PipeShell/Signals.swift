import CProcess
import Dispatch
import Locking
import PipeSession

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Signals pipesh handles, delivered on a queue of their own: a C handler writes each signal's
/// number to a pipe that a read source drains. (A dispatch signal source needs the signal ignored,
/// and an ignored signal that the kernel hands to a thread not blocking it is lost.)
enum SignalHub {
  private struct Handler {
    let id: Int
    let signal: Int32
    let call: @Sendable () -> Void
  }

  private static let handlers = Locked<(list: [Handler], nextID: Int, source: (any DispatchSourceRead)?)>(([], 0, nil))

  /// Calls `handler` for each `signal` until `remove` is called with the returned id.
  static func add(_ signal: Int32, _ handler: @escaping @Sendable () -> Void) -> Int {
    let descriptor = pipe_signal_pipe_install(signal)
    return handlers.withLock { state in
      defer { state.nextID += 1 }
      state.list.append(Handler(id: state.nextID, signal: signal, call: handler))
      if state.source == nil, descriptor >= 0 {
        let source = DispatchSource.makeReadSource(
          fileDescriptor: descriptor, queue: DispatchQueue(label: "pipesh.signals"))
        source.setEventHandler { deliver(from: descriptor) }
        source.resume()
        state.source = source
      }
      return state.nextID
    }
  }

  static func remove(_ id: Int) {
    handlers.withLock { state in state.list.removeAll { $0.id == id } }
  }

  private static func deliver(from descriptor: Int32) {
    var bytes = [UInt8](repeating: 0, count: 64)
    let count = read(descriptor, &bytes, bytes.count)
    guard count > 0 else { return }
    for byte in bytes[0..<count] {
      let calls = handlers.withLock { state in state.list.filter { $0.signal == Int32(byte) }.map(\.call) }
      for call in calls { call() }
    }
  }
}

/// Delivers SIGINT to a handler instead of killing the process.
public final class InterruptSignal {
  private let id: Int

  public init(_ handler: @escaping @Sendable () -> Void) {
    id = SignalHub.add(SIGINT, handler)
  }

  deinit {
    SignalHub.remove(id)
  }
}

/// SIGTERM and SIGHUP end a script quietly, but only after its buffered output is written, with
/// the status a shell gives for the signal (143, 129).
public final class TerminationSignals {
  private var ids: [Int] = []

  public init(flushing console: Console) {
    for number in [SIGTERM, SIGHUP] {
      ids.append(
        SignalHub.add(number) {
          console.flush()
          _exit(128 + number)
        })
    }
  }

  deinit {
    for id in ids { SignalHub.remove(id) }
  }
}
