import PipeViews

extension TraceObserver {
  /// Prints the lines to the console, each node's end coloured where standard output takes colour.
  convenience init(console: Console, labels: [String]) {
    self.init(labels: labels, colour: Paint.isOn(for: 1)) { console.line($0) }
  }
}
