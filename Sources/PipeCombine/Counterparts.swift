import PipeSema

/// The Combine counterparts: for each operator what Combine has (for `help` and `compare`'s
/// labels), and for each operation the publisher `compare` builds. Both switches are exhaustive:
/// an operator without a counterpart does not compile.
public enum Counterparts {
  /// What Combine has for an operator.
  public static func of(_ kind: OperatorKind) -> Counterpart {
    switch kind {
    case .timer:
      Counterpart(
        "PassthroughSubject + repeating action on the scheduler", origin: .virtualSource,
        differs:
          "Combine's Timer.publish emits Dates and AA's AsyncTimerSequence the clock's Instants; pipesh prints a tick count"
      )
    case .range: Counterpart("Publishers.Sequence (stride(from:through:by:).publisher)")
    case .from: Counterpart("Publishers.Sequence ([…].publisher)")
    case .marble: Counterpart("PassthroughSubject + sends scheduled per step", origin: .virtualSource)
    case .random: .none("Combine has no random source; a seeded generator's values through [...].publisher")
    case .lines: .none("Combine has no file source; FileHandle's notifications or [lines].publisher")
    case .stdin: .none("Combine has no standard-input source")
    case .channel:
      Counterpart(
        "PassthroughSubject (nothing sends to it during compare)",
        differs:
          "a subject gives every value to each subscriber and drops what nobody asks for; a channel gives each to one"
          + " consumer and send waits for it (Examples/channel-is-no-subject.pipe)")
    case .stream:
      Counterpart(
        "PassthroughSubject (nothing sends to it during compare)",
        differs:
          "a PassthroughSubject with no demand drops what is sent; an AsyncStream buffers by its policy, for one consumer"
      )
    case .subject: Counterpart("CurrentValueSubject(initial), through .values")
    case .empty: Counterpart("Empty()")
    case .never: Counterpart("Empty(completeImmediately: false)")
    case .fail: Counterpart("Fail(error:)")
    case .merge: Counterpart("Publishers.MergeMany", origin: .own)
    case .zip:
      Counterpart(
        "Publishers.Zip / Zip3",
        differs:
          "AA sees an input's end only when it asks that input again (after pairing); Combine when it is sent"
          + " (Examples/combine-zip-completion.pipe)")
    case .combineLatest:
      Counterpart(
        "Publishers.CombineLatest / CombineLatest3", origin: .own,
        differs: "AA finishes as soon as an input finishes without an element; Combine once all inputs have finished")
    case .chain:
      Counterpart(
        "append(_:) (Publishers.Concatenate)",
        differs: "Combine subscribes to the next publisher when the one before finishes (its time starts then)")
    case .map: Counterpart("tryMap(_:)")
    case .filter: Counterpart("tryFilter(_:)")
    case .compactMap: Counterpart("tryCompactMap(_:)")
    case .take:
      Counterpart(
        "prefix(_:)",
        differs:
          "Combine's prefix finishes when the element after the last arrives (or the input ends); AA's at the last")
    case .drop: Counterpart("dropFirst(_:)")
    case .takeWhile: Counterpart("tryPrefix(while:)")
    case .dropWhile: Counterpart("tryDrop(while:)")
    case .compacted: Counterpart("compactMap { $0 }")
    case .throttle:
      Counterpart(
        "throttle(for:scheduler:latest:)",
        differs:
          "Combine sends a window's element when the window ends (and holds the finish for it); AA when one arrives")
    case .debounce:
      Counterpart(
        "debounce(for:scheduler:)",
        differs: "when the input finishes, AA sends the pending element first; Combine finishes at once and drops it")
    case .removeDuplicates: Counterpart("removeDuplicates()")
    case .interspersed: .none("Combine has no interspersed; flatMap each element into [separator, element]")
    case .adjacentPairs: .none("Combine has no adjacentPairs; scan keeping the previous element")
    case .reductions: Counterpart("tryScan(_:_:)")
    case .chunks: Counterpart("collect(_:); with every: collect(.byTimeOrCount(…)) (pipesh's own†); with or: none")
    case .chunked: .none("Combine has no chunking by a predicate or by another publisher; scan and filter, or collect")
    case .buffer:
      Counterpart("buffer(size:prefetch:whenFull:): newest .dropOldest, oldest .dropNewest, bounded .byRequest")
    case .share:
      Counterpart(
        "share(): multicast(subject:).autoconnect(), over a subject sending in subscription order", origin: .own,
        differs: "Combine's share connects at the first subscriber: one that comes after the elements gets only the end"
      )
    case .enumerated: .none("Combine has no enumerated; scan counting, or zip with (0...).publisher")
    case .delay:
      Counterpart(
        "delay(for:scheduler:)",
        differs: "Combine delays the finish as well; AA's delay finishes when the last delayed element is out")
    case .work:
      .none(
        "Combine has no back-pressured work; flatMap(maxPublishers: .max(1)) { Just($0).delay(…) } (a cancelled subscription stops its delay: cooperative: false has no counterpart)"
      )
    case .timeout:
      Counterpart(
        "timeout(_:scheduler:)",
        differs: "Combine's timeout without customError finishes normally; pipesh's fails the job")
    case .mapError: Counterpart("mapError(_:)")
    case .tap: Counterpart("handleEvents(receiveOutput:)")
    case .flatMap: Counterpart("flatMap(maxPublishers: .max(1)), .max(N) with concurrency: N")
    case .flatMapLatest: .none("map { … }.switchToLatest(); compare does not build per-element pipelines")
    case .spawn: .none("a sink { } starting a Task { } per value, which nothing cancels; compare does not build it")
    case .print:
      Counterpart(
        "sink(receiveValue: { print($0) })",
        differs:
          "Combine's print(\"LABEL\") is an operator: it logs each event and passes values on, as tap \"LABEL\" does")
    case .count: Counterpart("count()")
    case .sum: Counterpart("tryReduce(0, +)")
    case .min: Counterpart("min(by:)")
    case .max: Counterpart("max(by:)")
    case .first: Counterpart("first()")
    case .last: Counterpart("last()")
    case .collect: Counterpart("collect()")
    case .reduce: Counterpart("tryReduce(_:_:)")
    case .drain: Counterpart("ignoreOutput()")
    case .diagram: .none("Combine draws no diagrams; this table is one")
    case .into: .none("an AsyncChannel has no Combine twin; subscribe(subject) sends into a PassthroughSubject")
    }
  }
}
