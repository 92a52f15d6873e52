// Text and times as JSON, Swift literals and saved traces write them: below the checker, so the
// trace format (TraceFormat) reads and writes without it.

extension String {
  /// The text with `"`, `\`, newline, carriage return and tab escaped as Swift and JSON write them
  /// (`\"`, `\\`, `\n`, `\r`, `\t`), and every other control character (below 0x20, and DEL) as
  /// `control` writes it: Swift's debug text, a Swift literal and JSON differ only there.
  public func escapingQuotesAndControls(_ control: (Unicode.Scalar) -> String) -> String {
    var out = ""
    for scalar in unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += control(scalar)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

extension Duration {
  /// The duration in whole nanoseconds (a saved trace's `ns`, when a node waited); a duration past
  /// 2^63 ns (about 292 years, which a virtual clock can pass) is `Int64.max`, not an overflow.
  public var wholeNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    let (sum, overflowSum) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    if overflowSum { return seconds < 0 ? .min : .max }
    return sum
  }
}
