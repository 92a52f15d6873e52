import AsyncAlgorithms
import Foundation

/// pipesh's `diagram`: the input as one marble line, column N for what happened at tick N.
func diagram<Input: AsyncSequence>(of input: Input, tick: Duration) async -> String {
  let start = ContinuousClock.now
  var steps: [Int: [String]] = [:]
  func record(_ event: String) {
    let step = Int(((ContinuousClock.now - start) / tick).rounded())
    steps[step, default: []].append(event)
  }
  do {
    for try await element in input { record(String(describing: element)) }
    record("|")
  } catch {
    record("^")
  }
  let last = steps.keys.max() ?? 0
  return (1...max(last, 1)).map { step in
    let events = steps[step] ?? []
    return events.isEmpty ? "-" : events.count == 1 ? events[0] : "[" + events.joined() + "]"
  }.joined()
}
