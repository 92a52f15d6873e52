import Foundation
import ServeProtocol

/// Present mode: the presented shell's state, taken from the feed on standard input, and the
/// viewers it is broadcast to. A viewer that joins late is sent the state first.
actor Presenter {
  private var presentation = Presentation()
  /// Each viewer's queue of frames to send (bounded: a viewer that stops reading misses events
  /// rather than holding the others up).
  private var viewers: [Int: AsyncStream<String>.Continuation] = [:]
  private var nextViewer = 0

  /// A new viewer: its id and the frames to send it, the state first.
  func join() -> (Int, AsyncStream<String>) {
    let (frames, queue) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(4096))
    let id = nextViewer
    nextViewer += 1
    queue.yield(ServerMessage.present(.state(presentation)).json)
    if presentation.ended {
      queue.finish()
    } else {
      viewers[id] = queue
    }
    return (id, frames)
  }

  func leave(_ id: Int) {
    viewers.removeValue(forKey: id)?.finish()
  }

  var viewerCount: Int { viewers.count }

  func fed(_ event: FeedEvent) {
    let event = event.endingItsLine
    presentation.apply(event)
    broadcast(.present(.fed(event)))
  }

  /// The feed has closed: every viewer is told, and its queue ends.
  func ended() {
    presentation.end()
    broadcast(.present(.ended))
    for queue in viewers.values { queue.finish() }
  }

  private func broadcast(_ message: ServerMessage) {
    let frame = message.json
    for queue in viewers.values { queue.yield(frame) }
  }

  /// Reads the feed from standard input until it closes, in order; then tells the viewers.
  func readFeed() async {
    let (lines, queue) = AsyncStream<[UInt8]>.makeStream()
    let reader = Thread {
      while let line = readLine(strippingNewline: true) {
        queue.yield(Array(line.utf8))
      }
      queue.finish()
    }
    reader.start()
    for await line in lines {
      if let event = FeedEvent.decode(line) { fed(event) }
    }
    ended()
  }
}
