import AsyncAlgorithms
import Locking
import PipeSema
import Synchronization
import VirtualTime

/// What outlives a job within one shell session: channels and the hot parts of `share` fragments.
public final class Session: Sendable {
  private let channels = Locked<[String: SessionChannel]>([:])
  /// Channels closed or failed (they stay ended; their names may be used again for new ones).
  private let ended = Locked<Set<ObjectIdentifier>>([])
  /// Streams closed and not read again since: an `AsyncStream` yields nothing once finished, so a
  /// `send` to one is an error (a consumer's use of the name makes a new stream).
  private let closedStreams = Locked<Set<String>>([])
  /// Channels some statement fails (`fail NAME "…"`): made as `AsyncThrowingChannel`s.
  private let failing = Locked<Set<String>>([])
  /// Names declared as streams and subjects: made so on first use.
  private let endpoints = Locked<[String: Endpoint]>([:])
  /// The hot parts of the session's `share` fragments.
  let fragments = ShareFragments()
  /// The ids of its jobs' tasks.
  let taskIDs = TaskIDs()
  /// Set by the interactive shell: standard input is the terminal the line editor reads, and no
  /// job may read it (it would take the keys typed at the prompt).
  public let terminalInputIsTheEditors = Atomic<Bool>(false)

  /// The session's start on the real clock: real-time stamps of all its jobs count from it, as
  /// virtual-time stamps count from the virtual clock's start.
  public let origin = ContinuousClock.now

  public init() {}

  /// Names channels that some statement fails: from now on they are made as
  /// `AsyncThrowingChannel`s (one made before stays what it is).
  public func willFail(_ names: Set<String>) {
    failing.withLock { $0.formUnion(names) }
  }

  /// Names declared as streams and subjects: from now on they are made so (one made before stays
  /// what it is).
  public func declare(_ endpoints: [String: Endpoint]) {
    self.endpoints.withLock { $0.merge(endpoints) { _, new in new } }
  }

  /// The channel named `name`, made on first use.
  public func channel(_ name: String) -> SessionChannel {
    let throwing = failing.withLock { $0.contains(name) }
    let endpoint = endpoints.withLock { $0[name] }
    return channels.withLock { channels in
      if let channel = channels[name] { return channel }
      let channel: SessionChannel =
        switch endpoint {
        case .stream(let buffering)?: .stream(StreamEndpoint(name: name, buffering: buffering))
        case .subject(let initial)?: .subject(SubjectEndpoint(initial: initial))
        case nil: throwing ? .throwing(AsyncThrowingChannel()) : .plain(AsyncChannel())
        }
      channels[name] = channel
      return channel
    }
  }

  /// Finishes the channel; a later use of the name makes a new one.
  public func close(_ name: String) {
    let channel = channels.withLock { $0.removeValue(forKey: name) }
    if case .stream = channel { closedStreams.withLock { _ = $0.insert(name) } }
    if let channel { ended.withLock { _ = $0.insert(channel.identity) } }
    channel?.finish()
  }

  /// The channel `name` if it is made already (nothing is made here).
  func existingChannel(_ name: String) -> SessionChannel? {
    channels.withLock { $0[name] }
  }

  /// Whether `name` is a stream closed since it was last read.
  public func isClosedStream(_ name: String) -> Bool {
    closedStreams.withLock { $0.contains(name) }
  }

  /// A job reads `name`: a closed stream of that name is made anew.
  func read(_ name: String) -> SessionChannel {
    closedStreams.withLock { _ = $0.remove(name) }
    return channel(name)
  }

  /// Whether the channel was closed or failed.
  func isEnded(_ channel: SessionChannel) -> Bool {
    ended.withLock { $0.contains(channel.identity) }
  }

  /// Fails the channel: every consumer's job fails with `message`; a later use of the name makes
  /// a new one. False when the channel is an `AsyncChannel`, which cannot fail.
  public func fail(_ name: String, message: String) -> Bool {
    let channel = channels.withLock { channels -> SessionChannel? in
      guard case .throwing = channels[name] else { return nil }
      return channels.removeValue(forKey: name)
    }
    guard case .throwing(let throwing) = channel else {
      // Not made yet: nobody consumes it, and nothing is to fail; made as AsyncChannel: it cannot.
      return channels.withLock { $0[name] == nil } && failing.withLock { $0.contains(name) }
    }
    ended.withLock { _ = $0.insert(ObjectIdentifier(throwing)) }
    throwing.fail(ChannelFailure(channel: name, message: message))
    return true
  }

  public var channelNames: [String] { channels.withLock { Array($0.keys).sorted() } }

  /// The `share` fragments whose hot part has nodes alive, by name, with how many.
  public var liveSharedNodes: [(fragment: String, nodes: Int)] { fragments.liveNodes }
}

/// What a name `send` and `close` reach: swift-async-algorithms' `AsyncChannel`, or, for a
/// channel some statement fails, its `AsyncThrowingChannel`; an `AsyncStream` (`stream NAME`); or
/// pipesh's current value (`subject NAME`).
public enum SessionChannel: Sendable {
  case plain(AsyncChannel<Value>)
  case throwing(AsyncThrowingChannel<Value, any Error>)
  case stream(StreamEndpoint)
  case subject(SubjectEndpoint)

  /// Gives `value` to a consumer: a channel waits until one takes it (or the channel ends); a
  /// stream yields it and a subject sets it, without waiting.
  public func send(_ value: Value) async {
    switch self {
    case .plain(let channel): await channel.send(value)
    case .throwing(let channel): await channel.send(value)
    case .stream(let stream): _ = stream.yield(value)
    case .subject(let subject): subject.send(value)
    }
  }

  /// Which channel this is.
  var identity: ObjectIdentifier {
    switch self {
    case .plain(let channel): ObjectIdentifier(channel)
    case .throwing(let channel): ObjectIdentifier(channel)
    case .stream(let stream): ObjectIdentifier(stream)
    case .subject(let subject): ObjectIdentifier(subject)
    }
  }

  func finish() {
    switch self {
    case .plain(let channel): channel.finish()
    case .throwing(let channel): channel.finish()
    case .stream(let stream): stream.finish()
    case .subject(let subject): subject.finish()
    }
  }

  /// The elements for a consumer: `stage` (node `nodeID`) of job `jobID`.
  func elements(for jobID: Int, stage: String, nodeID: Int) -> ValueSequence {
    switch self {
    case .plain(let channel): ValueSequence(channel)
    case .throwing(let channel): ValueSequence(channel)
    case .stream(let stream): stream.elements(for: jobID, stage: stage, nodeID: nodeID)
    case .subject(let subject): subject.elements()
    }
  }

  /// What backs it, as `inspect` and `help channel` name it.
  public var implementation: String {
    switch self {
    case .plain: "AsyncChannel"
    case .throwing: "AsyncThrowingChannel"
    case .stream(let stream): "AsyncStream (buffering: \(stream.buffering))"
    case .subject: "pipesh's current value (AsyncStream per consumer, newest kept)"
    }
  }
}

/// The error `fail NAME "MESSAGE"` ends a channel with.
struct ChannelFailure: Error, CustomStringConvertible {
  let channel: String
  let message: String

  var description: String { message }
}

/// The hot parts of `share` fragments, built by the first job that reads each: the session's, or
/// a `draw`'s own (it runs on a clock of its own, where the session's would never move).
final class ShareFragments: Sendable {
  private let shared = Locked<[Int: SharedFragment]>([:])

  /// The hot part of a `share` fragment, built by the first job that uses it.
  private struct SharedFragment {
    let name: String
    let sequence: ValueSequence
    /// Its nodes, shown in the tree of every job that reads it.
    let nodes: [Node]
    /// Its nodes still alive: they outlive the jobs that built them.
    let liveNodes: LiveCount
  }

  /// The shared sequence of binding `id` (fragment `name`) and its nodes, built by `build` on first
  /// use with the count its nodes are live in.
  func shared(
    _ id: Int, name: String, build: (LiveCount) throws -> (ValueSequence, [Node])
  ) throws -> (ValueSequence, [Node]) {
    try shared.withLock { table in
      if let fragment = table[id] { return (fragment.sequence, fragment.nodes) }
      let liveNodes = LiveCount()
      let (sequence, nodes) = try build(liveNodes)
      table[id] = SharedFragment(name: name, sequence: sequence, nodes: nodes, liveNodes: liveNodes)
      return (sequence, nodes)
    }
  }

  /// The `share` fragments whose hot part has nodes alive, by name, with how many.
  var liveNodes: [(fragment: String, nodes: Int)] {
    shared.withLock { table in
      table.values.map { ($0.name, $0.liveNodes.value) }.filter { $0.1 > 0 }.sorted { $0.0 < $1.0 }
    }
  }
}
