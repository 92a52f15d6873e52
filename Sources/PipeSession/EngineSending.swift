import Locking
import PipeRuntime
import PipeSema

extension Engine {
  /// `send NAME V…`: each value waits until a consumer takes it. When none does, the shell says so:
  /// on a virtual clock, when nothing else can run, it is a deadlock and the sending stops; on the
  /// real clock it says so after a second and goes on waiting (someone may still come); Ctrl-C
  /// stops the sending.
  public func send(_ values: [Value], to name: String) async {
    if session.isClosedStream(name) {
      return commandFailed(
        "send: stream '\(name)' is closed: \(values.map(\.printed).joined(separator: " ")) went nowhere "
          + "(a finished AsyncStream yields nothing); a new 'stream \(name)' consumer makes a new stream")
    }
    let channel = session.channel(name)
    switch channel {
    case .stream(let stream): return await yield(values, into: stream, name: name)
    case .subject(let subject): return await changeWorld { for value in values { subject.send(value) } }
    case .plain, .throwing: break
    }
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
          + Engine.nothingCanRun, to: .error)
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

  /// `send NAME V…` to a stream: each value is yielded at once, in the virtual world's order; what
  /// a full buffer dropped is said, and values yielded after the stream ended are an error.
  private func yield(_ values: [Value], into stream: StreamEndpoint, name: String) async {
    let results = Locked<[StreamEndpoint.Yielded]>([])
    await changeWorld { results.withLock { $0 = values.map { stream.yield($0) } } }
    let yielded = results.withLock { $0 }
    let dropped = yielded.compactMap { if case .dropped(let value) = $0 { value } else { nil } }
    if !dropped.isEmpty {
      let keeps =
        switch stream.buffering {
        case .oldest: "a full buffer keeps the oldest and drops what comes"
        case .newest, .unbounded: "a full buffer drops the oldest"
        }
      console.line(
        "send: stream '\(name)' dropped \(dropped.map(\.printed).joined(separator: " ")) "
          + "(buffering: \(stream.buffering): \(keeps))")
    }
    let lost = zip(values, yielded).filter { $0.1 == .ended }.map(\.0)
    if !lost.isEmpty {
      commandFailed(
        "send: stream '\(name)' has ended (its consumers stopped): "
          + "\(lost.map(\.printed).joined(separator: " ")) went nowhere; close it and read 'stream \(name)' again for a new one"
      )
    }
  }
}
