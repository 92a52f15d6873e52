import Locking
import PipeSema

extension Commands {
  /// `send NAME V…`: pushes values into a channel, each waiting for a consumer to take it.
  enum Send {
    static let entry = Command.values(
      "send", usage: "send NAME V…", summary: "pushes values into channel NAME (waits for a consumer)"
    ) { shell, name, values in
      await shell.send(values, to: name)
    }.example("channel orders of: String | print time: true &\nsend orders \"a\" \"b\"\nclose orders")
  }
}

extension Shell {
  /// `send NAME V…`: each value waits until a consumer takes it. When none does, the shell says so
  /// once (on a virtual clock: when nothing else can run; on the real clock: after a second), and
  /// Ctrl-C stops the sending.
  func send(_ values: [Value], to name: String) async {
    let channel = session.channel(name)
    let taken = Locked(0)
    let console = self.console
    let waiting: @Sendable () -> Void = {
      let next = taken.withLock { $0 }
      guard next < values.count else { return }
      console.line(
        "send: waiting for a consumer of '\(name)' to take \(values[next].printed) (Ctrl-C stops)", to: .error)
    }
    let realClock = !virtualTime
    // On the virtual clock the consumers are virtual jobs: the send is made on that clock too.
    if !realClock { _ = nextClock }
    await waitFor(onStall: waiting) {
      let notice = realClock ? Task { if (try? await Task.sleep(for: .seconds(1))) != nil { waiting() } } : nil
      defer { notice?.cancel() }
      for value in values {
        await channel.send(value)
        if Task.isCancelled { return }
        taken.withLock { $0 += 1 }
      }
    }
    let sent = taken.withLock { $0 }
    if sent < values.count {
      // Interactively after the terminal's own "^C".
      let lead = interactive ? "\n" : ""
      console.line(lead + "send: stopped, no consumer took \(values[sent].printed)", to: .error)
    }
  }
}
