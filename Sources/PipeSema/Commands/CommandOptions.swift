/// What a command reads after its pipeline: labelled durations, and where a picture goes.
public struct CommandOptions: Sendable {
  /// The label of the picture's file: `to: "FILE.svg"`.
  public static let fileLabel = "to"
  /// The label of `step`'s time to run to: `until: 5`.
  public static let untilLabel = "until"
  /// The label of `swift`'s choice of checked arithmetic: `checked: true`.
  public static let checkedLabel = "checked"
  /// The label of `swift`'s plain form, without pipesh's per-element checks: `plain: true`.
  public static let plainLabel = "plain"
  /// The label of `draw`'s demand lines: `demand: true`.
  public static let demandLabel = "demand"
  /// The label of `draw`'s notation: `dialect: rxjs`.
  public static let dialectLabel = "dialect"
  /// The label of `explore`'s bound on its orders: `orders: 100`.
  public static let ordersLabel = "orders"
  /// The label of the seed of `explore`'s orders at random, after its depth-first ones: `seed: 7`.
  public static let seedLabel = "seed"
  /// The label of one order, named by the token `explore` printed: `draw P order: oab…`.
  public static let orderLabel = "order"
  /// The label of `expect`'s `in: every order` (taken out before the other options are read).
  public static let inLabel = "in"
  public var durations: [String: Duration] = [:]
  /// `orders: N`: `explore` runs at most N orders.
  public var orders: Int?
  /// How many orders `explore` and `expect … in: every order` run at most without `orders:`.
  public static let defaultOrders = 1000
  /// `seed: S`: where `explore`'s orders at random start (1 unless it says).
  public var seed: Int?
  /// `order: TOKEN`: the run follows the order `explore` named so.
  public var order: OrderToken?
  /// Which of the command's arguments `order:` is (a caret at it when its choices do not fit).
  public var orderArgument: Int?
  /// `checked: true`: the Swift keeps pipesh's checked Int arithmetic.
  public var checked = false
  /// `plain: true`: the Swift leaves out pipesh's per-element checks (checked arithmetic, checked
  /// arguments worked out from `$0`), for pasting into an app.
  public var plain = false
  /// `demand: true`: `draw` adds, under each lane, when its consumer's request was outstanding.
  public var demand = false
  /// `dialect: rxjs`: `draw` writes its lanes in RxJS's marble notation.
  public var dialect = MarbleDialect.aa
  /// `to: "FILE"`: write a picture there instead of drawing text: a web page when the name ends in
  /// `.html`, else an SVG picture.
  public var file: String?

  /// Whether `file` asks for a web page.
  public var wantsPage: Bool { file?.lowercased().hasSuffix(".html") ?? false }

  public init() {}

  public subscript(name: String) -> Duration? { durations[name] }

  /// How usage writes an option: `tick: D`, `to: "F.svg"`.
  static func usage(_ name: String) -> String {
    switch name {
    case fileLabel: "to: \"F.svg\"|\"F.html\""
    case checkedLabel: "checked: true"
    case plainLabel: "plain: true"
    case demandLabel: "demand: true"
    case dialectLabel: "dialect: aa|rxjs"
    case ordersLabel: "orders: N"
    case seedLabel: "seed: S"
    case orderLabel: "order: TOKEN"
    case inLabel: "in: every order"
    default: "\(name): D"
    }
  }
}
