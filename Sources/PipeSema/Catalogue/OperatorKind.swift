/// Every source, combinator, operator and sink, in the order `ops` lists them. Its raw value is
/// the name a pipeline writes; everything else about it is in its definition.
public enum OperatorKind: String, CaseIterable, Sendable {
  // sources
  case timer, range, from, marble, random, lines, stdin, channel, stream, subject, empty, never, fail
  // combinators
  case merge, zip, combineLatest, chain
  // operators
  case map, filter, compactMap, take, drop, takeWhile, dropWhile, compacted, throttle, debounce, removeDuplicates
  case interspersed, adjacentPairs, reductions, chunks, chunked, buffer, share, enumerated, delay, work, timeout
  case mapError, tap, flatMap, flatMapLatest, spawn
  // sinks
  case print, count, sum, min, max, first, last, collect, reduce, drain, diagram, into

  /// The name a pipeline writes.
  public var name: String { rawValue }

  /// The operator's definition: its signature and how its arguments become an `Operation`.
  public var definition: any OperatorDefinition.Type {
    switch self {
    case .timer: Catalogue.Timer.self
    case .range: Catalogue.RangeSource.self
    case .from: Catalogue.From.self
    case .marble: Catalogue.Marble.self
    case .random: Catalogue.Random.self
    case .lines: Catalogue.Lines.self
    case .stdin: Catalogue.Stdin.self
    case .channel: Catalogue.Channel.self
    case .stream: Catalogue.Stream.self
    case .subject: Catalogue.Subject.self
    case .empty: Catalogue.Empty.self
    case .never: Catalogue.NeverSource.self
    case .fail: Catalogue.Fail.self
    case .merge: Catalogue.Merge.self
    case .zip: Catalogue.Zip.self
    case .combineLatest: Catalogue.CombineLatest.self
    case .chain: Catalogue.Chain.self
    case .map: Catalogue.Map.self
    case .filter: Catalogue.Filter.self
    case .compactMap: Catalogue.CompactMap.self
    case .take: Catalogue.Take.self
    case .drop: Catalogue.Drop.self
    case .takeWhile: Catalogue.TakeWhile.self
    case .dropWhile: Catalogue.DropWhile.self
    case .compacted: Catalogue.Compacted.self
    case .throttle: Catalogue.Throttle.self
    case .debounce: Catalogue.Debounce.self
    case .removeDuplicates: Catalogue.RemoveDuplicates.self
    case .interspersed: Catalogue.Interspersed.self
    case .adjacentPairs: Catalogue.AdjacentPairs.self
    case .reductions: Catalogue.Reductions.self
    case .chunks: Catalogue.Chunks.self
    case .chunked: Catalogue.Chunked.self
    case .buffer: Catalogue.Buffer.self
    case .share: Catalogue.Share.self
    case .enumerated: Catalogue.Enumerated.self
    case .delay: Catalogue.Delay.self
    case .work: Catalogue.Work.self
    case .timeout: Catalogue.Timeout.self
    case .mapError: Catalogue.MapError.self
    case .tap: Catalogue.Tap.self
    case .flatMap: Catalogue.FlatMap.self
    case .flatMapLatest: Catalogue.FlatMapLatest.self
    case .spawn: Catalogue.Spawn.self
    case .print: Catalogue.Print.self
    case .count: Catalogue.Count.self
    case .sum: Catalogue.Sum.self
    case .min: Catalogue.Min.self
    case .max: Catalogue.Max.self
    case .first: Catalogue.First.self
    case .last: Catalogue.Last.self
    case .collect: Catalogue.Collect.self
    case .reduce: Catalogue.Reduce.self
    case .drain: Catalogue.Drain.self
    case .diagram: Catalogue.Diagram.self
    case .into: Catalogue.Into.self
    }
  }

  public var signature: OperatorSignature { definition.signature }

  /// Other names of operators: `scan` is `reductions`.
  public static let aliases: [String: OperatorKind] = ["scan": .reductions]
  /// The sink added to a pipeline run without one.
  public static let implicitSink = OperatorKind.print
  /// The source that reads a file (completion offers paths after it).
  public static let fileSource = OperatorKind.lines

  /// What the checker checks pipelines against.
  public static let signatures = SignatureTable(allCases.map(\.signature), aliases: aliases)
}
