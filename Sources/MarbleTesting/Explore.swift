import Testing

/// One outcome of `Marbles.explore`: the diagram its runs recorded, how many orders gave it, and
/// the token of the first (which `Marbles.record(order:)` runs again).
public struct MarbleOutcome: Sendable, CustomStringConvertible {
  public let marbles: Marbles
  public let orders: Int
  public let token: String

  public var description: String { "\(marbles) (\(orders) order\(orders == 1 ? "" : "s"), order: \(token))" }
}

/// What `Marbles.explore` found: each distinct outcome once, in the order found, how many orders
/// ran, and whether that was every order.
public struct MarbleExploration: Sendable {
  public let outcomes: [MarbleOutcome]
  public let orders: Int
  public let all: Bool
}

extension Marbles {
  /// Runs the sequence `build` makes once per order of the tasks runnable at one instant of the
  /// `TestClock` (depth-first: the first at each choice, then the next at the last choice that has
  /// one, …), at most `orders` runs, and when those were not all, as many again at random (each
  /// choice drawn from `seed`); returns each distinct diagram once. A run without choices has one
  /// order. Same `step` and `until` as `record`. A task continuing after a hop between executors is
  /// no choice, so the orders are the same in debug and release builds.
  public static func explore<Recorded: AsyncSequence & SendableMetatype>(
    step: Duration = .seconds(1), until horizon: Duration? = nil, orders limit: Int = 1000, seed: UInt64 = 1,
    _ build: @escaping @Sendable (TestClock) throws -> Recorded
  ) async -> MarbleExploration {
    var orders = DepthFirstOrders(limit: limit)
    var outcomes: [MarbleOutcome] = []
    func run(_ order: MarbleOrder) async {
      let marbles = await record(
        step: step, until: horizon, markingCancellation: false, pacing: [], order: order, build)
      if let index = outcomes.firstIndex(where: { $0.marbles.description == marbles.description }) {
        let found = outcomes[index]
        outcomes[index] = MarbleOutcome(marbles: found.marbles, orders: found.orders + 1, token: found.token)
      } else {
        outcomes.append(MarbleOutcome(marbles: marbles, orders: 1, token: order.token))
      }
    }
    while let choices = orders.next() {
      let order = MarbleOrder(replaying: choices)
      await run(order)
      orders.ran(order.made)
    }
    // Not all: as many again at random (each choice drawn from `seed`), as the shell's explore does.
    var random = 0
    if !orders.all {
      var seeds = SplitMix64(seed: seed)
      while random < limit {
        await run(MarbleOrder(randomFrom: seeds.next()))
        random += 1
      }
    }
    return MarbleExploration(outcomes: outcomes, orders: orders.count + random, all: orders.all)
  }
}

/// Which orders `expectMarbles` checks.
public enum MarbleOrders: Sendable, Equatable {
  /// The one the clock runs (the tasks runnable at one instant in the order they became runnable).
  case clockOrder
  /// Every order `Marbles.explore` would run, at most `limit`: more is a failure too.
  case everyOrder(limit: Int)

  /// Every order, at most 1000.
  public static let everyOrder = MarbleOrders.everyOrder(limit: 1000)
}

/// `expectMarbles` in every order (`in: .everyOrder`): the first order whose diagram differs is
/// recorded as an issue, with its token; more orders than the limit is an issue too, saying how
/// many held. Returns the first failing comparison, or the last that held.
@discardableResult
public func expectMarbles<Recorded: AsyncSequence & SendableMetatype>(
  _ expected: String, step: Duration = .seconds(1), until horizon: Duration? = nil, in orders: MarbleOrders,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ build: @escaping @Sendable (TestClock) throws -> Recorded
) async -> MarbleComparison? {
  guard case .everyOrder(let limit) = orders else {
    return await expectMarbles(expected, step: step, until: horizon, sourceLocation: sourceLocation, build)
  }
  guard let marbles = expectedMarbles(expected, sourceLocation: sourceLocation) else { return nil }
  var walk = DepthFirstOrders(limit: limit)
  var last: MarbleComparison?
  while let choices = walk.next() {
    let order = MarbleOrder(replaying: choices)
    let comparison = await compare(marbles, step: step, until: horizon, order: order, build)
    walk.ran(order.made)
    last = comparison
    guard comparison.holds else {
      Issue.record(
        Comment(
          rawValue: "in order \(walk.count) of every order (order: \(order.token); Marbles.record(order:) runs it "
            + "again): " + comparison.description),
        sourceLocation: sourceLocation)
      return comparison
    }
  }
  if !walk.all {
    let held = "it held in the \(walk.count) orders checked"
    Issue.record(
      Comment(rawValue: "not checked in every order: \(held), and more remain (.everyOrder(limit: N) checks up to N)"),
      sourceLocation: sourceLocation)
  }
  return last
}
