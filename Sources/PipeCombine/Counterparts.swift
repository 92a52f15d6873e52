import PipeSema

/// The registry of Combine counterparts: one per pipesh source, combinator, operator and sink, in
/// the order of pipesh's operator registry (a test checks that every operator has one).
public enum Counterparts {
  public static let all: [Counterpart] = sources + combinators + operators + sinks

  private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.operatorName, $0) })

  /// The counterpart of an operator, by its registry name.
  public static func named(_ name: String) -> Counterpart? { byName[name] }
}
