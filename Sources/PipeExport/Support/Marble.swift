import AsyncAlgorithms
import Foundation

/// pipesh's `marble`: a diagram's values at their steps, one step per tick, the first one tick
/// after the start. `-` a step with no event, `a` or `'text'` a value (`''` inside the quotes
/// for `'`), `[ab]` values in one step, `|` the end, `^` a failure, `;` cancelled; with none of
/// these, it ends after its last event.
func marble(
  _ diagram: String, tick: Duration = .seconds(1), stage: String = "marble"
) -> AsyncThrowingStream<String, Error> {
  // The values of each step (none for `-`), and the end, where the diagram writes one.
  var steps: [[String]] = []
  var end: Character?
  var group: [String]?
  var quoted: String?
  var closing = false
  func add(_ value: String) {
    if group != nil { group?.append(value) } else { steps.append([value]) }
  }
  for character in diagram where end == nil {
    if closing {
      closing = false
      if character == "'" {
        quoted?.append("'")
        continue
      }
      add(quoted ?? "")
      quoted = nil
    }
    if quoted != nil {
      if character == "'" { closing = true } else { quoted?.append(character) }
      continue
    }
    switch character {
    case " ": continue
    case "'": quoted = ""
    case "[": group = []
    case "]":
      steps.append(group ?? [])
      group = nil
    case "-": steps.append([])
    case "|", "^", ";": end = character
    default: add(String(character))
    }
  }
  if closing { add(quoted ?? "") }
  let values = steps
  let ending = end
  return AsyncThrowingStream { continuation in
    let task = Task {
      let start = ContinuousClock.now
      do {
        for (index, step) in values.enumerated() where !step.isEmpty {
          try await Task.sleep(until: start + tick * (index + 1))
          for value in step { continuation.yield(value) }
        }
        if let ending {
          try await Task.sleep(until: start + tick * (values.count + 1))
          if ending == "^" { throw StageError(stage: stage, message: "failed (^ in the diagram)") }
        }
        continuation.finish()
      } catch {
        continuation.finish(throwing: error is CancellationError ? nil : error)
      }
    }
    continuation.onTermination = { _ in task.cancel() }
  }
}
