/// What a run reports of its jobs and nodes, as values: the runtime makes them, the engine
/// and the views read them (no view reads the runtime's live records).

/// A job's state, as `jobs` shows it.
public enum JobState: String, Sendable {
  case running
  case finished
  case cancelled
  case failed
}

/// How a node ended, or that it has not.
public enum NodeState: String, Sendable {
  /// Built, not yet asked for an element.
  case idle
  /// Asked for elements and not ended.
  case running
  /// Its input ended, or it had all it needed (as `take 3` after three).
  case finished
  /// It threw an error.
  case failed
  /// Its task was cancelled, or its consumer stopped asking before the end.
  case cancelled
}

/// What a node stands for: what views read of it, never its spelling.
public enum NodeKind: Sendable, Equatable {
  /// An operator of the catalogue (a source, combinator, operator or sink), with its facts.
  case operation(OperatorFacts)
  /// A job's reading of a `share` fragment: the fragment's nodes say what it does.
  case sharedFragment

  /// The kind of node a checked stage builds.
  public init(_ stage: CheckedStage) {
    switch stage.node {
    case .operation(let written): self = .operation(stage.operation?.facts ?? written.facts)
    case .shared: self = .sharedFragment
    }
  }
}

/// What a running node waits on now, as `top` and the deadlock messages say it: read from its
/// record where it keeps one, else from its operator's facts.
public enum NodeWait: Sendable, Equatable {
  /// An `into` waits, since then, for a consumer to take the element it sends.
  case consumerToTake(since: Duration)
  /// Its consumer is not asking: busy with the last element.
  case consumerToAsk
  /// A `share` holds elements for its slowest reader.
  case slowestReader(held: Int)
  /// Where its operator waits when asked.
  case operation(WaitPlace)
  /// A shared fragment's reading: its inputs' nodes say where.
  case inputs
}

/// What happened to a node: an event of its lifecycle.
public enum NodeEventKind: Sendable {
  case start
  case element(Value)
  case finished
  case failed(String)
  case cancelled(String)
  /// Its consumer called `next()`: a request is outstanding until the node's next event (an
  /// element, or its end) answers it. Recorded only while someone watches the job.
  case asked
  /// An `into` began to send an element to channel NAME: it waits until a consumer of the channel
  /// takes it (its next event). Recorded only while someone watches the job.
  case sending(to: String)
}
