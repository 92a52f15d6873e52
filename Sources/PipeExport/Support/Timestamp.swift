import AsyncAlgorithms
import Foundation

/// The time since `origin` as pipesh prints it: `+1.500s`.
func timestamp(since origin: ContinuousClock.Instant) -> String {
  let milliseconds = (ContinuousClock.now - origin) / .milliseconds(1)
  let rounded = Int(milliseconds.rounded())
  let fraction = String(rounded % 1000)
  return "+\(rounded / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction + "s"
}
