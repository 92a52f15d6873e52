import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Delivers SIGINT to a handler on a dispatch queue instead of killing the process.
public final class InterruptSignal {
  private let source: any DispatchSourceSignal

  public init(_ handler: @escaping @Sendable () -> Void) {
    signal(SIGINT, SIG_IGN)
    source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "pipesh.sigint"))
    source.setEventHandler(handler: handler)
    source.resume()
  }

  deinit {
    source.cancel()
  }
}
