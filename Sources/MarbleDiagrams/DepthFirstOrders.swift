/// The orders an exploration runs, depth-first over its choices (the shell's `explore` and
/// `expect … in: every order`, MarbleTesting's `Marbles.explore` and `in: .everyOrder`): the first
/// task at each choice, then the next at the last choice that has one, …, at most `limit` orders.
/// A choice is where several tasks could run first at one instant of a virtual clock; each driver
/// makes its own and reports them (`ran(_:)`).
public struct DepthFirstOrders: Sendable {
  public let limit: Int
  /// The choices the next order replays; nil when every order has run.
  private var prefix: [Int]? = []
  /// How many orders have run.
  public private(set) var count = 0

  public init(limit: Int) { self.limit = limit }

  /// Whether every order has run: the last one had no choice left with a task after the one picked.
  public var all: Bool { prefix == nil }

  /// The choices of the next order to run (after them, the first task at each choice), nil when
  /// every order has run or `limit` have.
  public func next() -> [Int]? {
    guard count < limit, let prefix else { return nil }
    return prefix
  }

  /// The order `next()` gave has run, making `made` (the position picked at each choice, among how
  /// many): the one after it takes the next task at its last choice that has one.
  public mutating func ran(_ made: [(index: Int, count: Int)]) {
    count += 1
    var next = made
    while let last = next.last, last.index + 1 >= last.count { next.removeLast() }
    prefix = next.popLast().map { last in next.map(\.index) + [last.index + 1] }
  }
}

/// A small generator of pseudo-random numbers (SplitMix64): the same seed gives the same numbers on
/// every machine and build, unlike the system's (`random … seed: S`, and the orders at random of
/// `explore` and `Marbles.explore`).
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
