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
  /// `send NAME V…`: each value waits until a consumer takes it. When none does, the shell says so:
  /// on a virtual clock, when nothing else can run, it is a deadlock and the sending stops; on the
  /// real clock it says so after a second and goes on waiting (someone may still come); Ctrl-C
  /// stops the sending.
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
    let deadlock = Locked(false)
    let stuck: @Sendable () -> Void = {
      deadlock.withLock { $0 = true }
      let next = taken.withLock { $0 }
      guard next < values.count else { return }
      console.line(
        "error: send: deadlock: nothing can take \(values[next].debugText) from channel '\(name)': "
          + Shell.nothingCanRun, to: .error)
    }
    let realClock = !virtualTime
    // On the virtual clock the consumers are virtual jobs: the send is made on that clock too.
    if !realClock { _ = nextClock }
    await waitFor(onDeadlock: stuck) {
      let notice = realClock ? Task { if (try? await Task.sleep(for: .seconds(1))) != nil { waiting() } } : nil
      defer { notice?.cancel() }
      for value in values {
        await channel.send(value)
        if Task.isCancelled { return }
        taken.withLock { $0 += 1 }
      }
    }
    let sent = taken.withLock { $0 }
    if sent < values.count, !deadlock.withLock({ $0 }) {
      // Interactively after the terminal's own "^C".
      let lead = interactive ? "\n" : ""
      console.line(lead + "send: stopped, no consumer took \(values[sent].printed)", to: .error)
    }
  }
}
