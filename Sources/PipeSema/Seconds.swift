/// How pipesh writes a duration: the one place for it.
extension Duration {
  /// `1.5s`: seconds to a tenth, as `jobs`, job messages and errors show them. A duration too
  /// short to show in tenths (but not zero) is shown in the largest unit it fills: `12ms`, `500µs`,
  /// `40ns`, never a `0.0s` that is not zero.
  public var secondsText: String {
    let seconds = inSecondsValue
    guard seconds > 0, seconds < 0.05 else { return String((seconds * 10).rounded() / 10) + "s" }
    let nanoseconds = wholeNanoseconds
    if nanoseconds >= 1_000_000 { return "\((nanoseconds + 500_000) / 1_000_000)ms" }
    if nanoseconds >= 1_000 { return "\((nanoseconds + 500) / 1_000)µs" }
    return "\(nanoseconds)ns"
  }

  /// `0.05s`, `1.25s`, `2.0s`, `500µs`, `7ns`: the duration exactly, as an interval argument gave
  /// it (whole nanoseconds), where `secondsText` rounds to tenths (`timeout 0.05` said `0.1s`).
  public var exactText: String {
    let nanoseconds = wholeNanoseconds
    guard nanoseconds >= 1_000_000 || nanoseconds <= 0 else {
      return nanoseconds % 1_000 == 0 ? "\(nanoseconds / 1_000)µs" : "\(nanoseconds)ns"
    }
    let fraction = String(nanoseconds.magnitude % 1_000_000_000)
    var digits = String(repeating: "0", count: 9 - fraction.count) + fraction
    while digits.count > 1, digits.hasSuffix("0") { digits.removeLast() }
    return "\(nanoseconds / 1_000_000_000).\(digits)s"
  }

  /// `+1.500s`: the time since a job started, to the millisecond, as `print time: true` and `trace`
  /// show it.
  public var stampText: String {
    var (seconds, attoseconds) = components
    var millis = (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
    // Not `seconds * 1000 + …`: past 9.2e15 s (a virtual clock's time can get there) it overflowed.
    if millis >= 1000 {
      millis -= 1000
      seconds = seconds == .max ? seconds : seconds + 1
    }
    let fraction = String(millis)
    return "+\(seconds)." + String(repeating: "0", count: 3 - fraction.count) + fraction + "s"
  }

  public var inSecondsValue: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
