import Foundation

/// A script of generated expectations over what happens at one instant (merges of two marbles
/// whose elements may share a step, inner pipelines running at once), some in every order, some
/// holding and some not: `pipesh --emit-test` must write a test of each that holds or fails in
/// Swift exactly as pipesh says, and leave out those whose orders disagree.
enum GeneratedExpectations {
  /// The same script for the same seed.
  static func script(seed: UInt64, count: Int) -> String {
    var random = seed
    func next(_ bound: Int) -> Int {
      // SplitMix64's step: enough spread for a handful of choices.
      random &+= 0x9E37_79B9_7F4A_7C15
      var z = random
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
    var lines: [String] = []
    for _ in 0..<count {
      let everyOrder = next(2) == 0 ? " in: every order" : ""
      if next(4) == 0 {
        // Inner pipelines at once: element n's pipeline ticks n times a second apart.
        let (first, second) = (1 + next(3), 1 + next(3))
        let claim = ["[00][1|]", "[00]1|", "[00][11]2|", "[00][11][22|]"][next(4)]
        lines.append(
          "expect from \(first) \(second) | flatMap { timer 1 | take $0 } concurrency: 2 == \"\(claim)\"\(everyOrder)")
        continue
      }
      let left = lane(letters: "abc", length: 1 + next(3), next)
      let right = lane(letters: "xyz", length: 1 + next(3), next)
      // The merge as the clock's own order draws it, the left input first at a step; at times
      // the other way round.
      let claim = merged(next(3) == 0 ? (right, left) : (left, right))
      let inputs = "marble \"\(diagram(left))\", marble \"\(diagram(right))\""
      lines.append("expect merge(\(inputs)) == \"\(claim)\"\(everyOrder)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A lane's values by step (nil: none), its end after the last.
  private static func lane(letters: String, length: Int, _ next: (Int) -> Int) -> [Character?] {
    (0..<length).map { _ in next(2) == 0 ? nil : Array(letters)[next(letters.count)] }
  }

  private static func diagram(_ lane: [Character?]) -> String {
    lane.map { $0.map(String.init) ?? "-" }.joined() + "|"
  }

  /// Both lanes' values at each step (the first's before the second's), ending when both have.
  private static func merged(_ lanes: ([Character?], [Character?])) -> String {
    let end = max(lanes.0.count, lanes.1.count)
    return (0...end).map { step in
      var events = [lanes.0, lanes.1].compactMap { step < $0.count ? $0[step] : nil }.map(String.init)
      if step == end { events.append("|") }
      switch events.count {
      case 0: return "-"
      case 1: return events[0]
      default: return "[" + events.joined() + "]"
      }
    }.joined()
  }
}
