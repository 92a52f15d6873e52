/// How pipesh writes a duration: the one place for it.
extension Duration {
  /// `1.5s`: seconds to a tenth, as `jobs`, job messages and errors show them.
  public var secondsText: String {
    String((inSecondsValue * 10).rounded() / 10) + "s"
  }

  /// `+1.500s`: the time since a job started, to the millisecond, as `print time: true` and `trace`
  /// show it.
  public var stampText: String {
    let (seconds, attoseconds) = components
    let millis = seconds * 1000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
    let fraction = String(millis % 1000)
    return "+\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction + "s"
  }

  public var inSecondsValue: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
