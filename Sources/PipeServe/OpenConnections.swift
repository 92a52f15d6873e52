import HummingbirdWebSocket
import Synchronization

/// The pages connected now, so that a stopping server closes them (status 1001, going away)
/// rather than waiting for them to leave.
final class OpenConnections: Sendable {
  static let shared = OpenConnections()

  private let writers = Mutex<(next: Int, open: [Int: WebSocketOutboundWriter])>((0, [:]))

  func opened(_ writer: WebSocketOutboundWriter) -> Int {
    writers.withLock { writers in
      writers.next += 1
      writers.open[writers.next] = writer
      return writers.next
    }
  }

  func closed(_ id: Int) {
    _ = writers.withLock { $0.open.removeValue(forKey: id) }
  }

  func closeAll() async {
    for writer in writers.withLock({ Array($0.open.values) }) {
      try? await writer.close(.goingAway, reason: "pipesh serve is stopping")
    }
  }
}
