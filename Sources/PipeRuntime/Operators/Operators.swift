import PipeSema

/// The registry: every source, combinator, operator and sink, in the order `ops` lists them.
/// Each is defined in its own file in this folder; adding one is that file and one line here.
public enum Operators {
  public static let all: [Operator] = [
    // sources
    Timer.entry, RangeSource.entry, From.entry, Marble.entry, Random.entry, Lines.entry, Stdin.entry,
    Channel.entry, Empty.entry, NeverSource.entry, Fail.entry,
    // combinators
    Merge.entry, Zip.entry, CombineLatest.entry, Chain.entry,
    // operators
    Map.entry, Filter.entry, CompactMap.entry, Take.entry, Drop.entry, TakeWhile.entry, DropWhile.entry,
    Compacted.entry, Throttle.entry, Debounce.entry, RemoveDuplicates.entry, Interspersed.entry,
    AdjacentPairs.entry, Reductions.entry, Chunks.entry, Chunked.entry, Buffer.entry, Share.entry,
    Enumerated.entry, Delay.entry, Work.entry, Timeout.entry, Tap.entry, FlatMap.entry, FlatMapLatest.entry,
    // sinks
    Print.entry, Count.entry, Sum.entry, Min.entry, Max.entry, First.entry, Last.entry, Collect.entry,
    Reduce.entry, Drain.entry, Diagram.entry, Into.entry,
  ]

  /// Other names of operators: `scan` is `reductions`.
  public static let aliases = ["scan": "reductions"]

  /// What the checker checks pipelines against.
  public static let signatures = SignatureTable(
    all.map(\.signature), aliases: aliases, implicitSink: Print.entry.signature.name)

  /// The sink that prints nothing (`draw` puts it in place of the implicit one).
  public static let quietSink = Drain.entry.signature.name
  /// The source whose `tick:` sets `draw`'s tick.
  public static let marbleSource = Marble.entry.signature.name
  /// The source that reads a file (completion offers paths after it).
  public static let fileSource = Lines.entry.signature.name

  private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

  /// The operator a checked stage names; an alias resolves through the signature table.
  static func named(_ name: String) -> Operator? { signatures[name].flatMap { byName[$0.name] } }
}
