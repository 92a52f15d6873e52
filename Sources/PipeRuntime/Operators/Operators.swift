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
    Enumerated.entry, Delay.entry, Timeout.entry, Tap.entry,
    // sinks
    Print.entry, Count.entry, Sum.entry, Min.entry, Max.entry, First.entry, Last.entry, Collect.entry,
    Reduce.entry, Drain.entry, Diagram.entry, Into.entry,
  ]

  /// Other names of operators: `scan` is `reductions`.
  public static let aliases = ["scan": "reductions"]

  /// What the checker checks pipelines against.
  public static let signatures = SignatureTable(all.map(\.signature), aliases: aliases)

  private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

  /// The operator a checked stage names; an alias resolves through the signature table.
  static func named(_ name: String) -> Operator? { signatures[name].flatMap { byName[$0.name] } }
}
