import HummingbirdWebSocket
import ServeProtocol

/// A browser watching the presented session: sent the state, then every event, until the feed
/// ends or the browser leaves. What it sends is answered with an error: the view is read-only.
enum Viewer {
  static func serve(presenter: Presenter, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
    let (id, frames) = await presenter.join()
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        for await frame in frames {
          do { try await outbound.write(.text(frame)) } catch { break }
        }
        // The feed ended (or the viewer fell away): closing ends the loop below as well.
        try? await outbound.close(.goingAway, reason: "the presented shell has ended")
      }
      group.addTask {
        do {
          for try await _ in inbound.messages(maxSize: Limits.hardMessageSize) {
            let refusal = ServerMessage.error("this page presents a shell's session read-only: it runs nothing")
            try await outbound.write(.text(refusal.json))
          }
        } catch {}
        await presenter.leave(id)
      }
      await group.next()
      await presenter.leave(id)
      group.cancelAll()
    }
  }
}
