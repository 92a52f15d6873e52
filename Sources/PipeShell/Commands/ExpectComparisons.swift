import MarbleDiagrams
import PipeSema
import PipeSyntax
import PipeViews

/// Two lists of printed values, aligned a value a column, the first difference marked.
struct ListComparison {
  let expected: [String]
  let actual: [String]

  /// The first index at which they differ.
  var difference: Int? {
    (0..<max(expected.count, actual.count)).first { index in
      (index < expected.count ? expected[index] : nil) != (index < actual.count ? actual[index] : nil)
    }
  }

  var message: String? {
    guard let index = difference else { return nil }
    func word(_ list: [String]) -> String { index < list.count ? "'\(list[index])'" : "nothing" }
    return "value \(index + 1): expected \(word(expected)), got \(word(actual))"
  }

  /// The values up to a few past the first difference (… marks the rest).
  var drawing: [String] {
    let shown = (difference ?? 0) + 3
    let expected = Array(self.expected.prefix(shown)) + (self.expected.count > shown ? ["…"] : [])
    let actual = Array(self.actual.prefix(shown)) + (self.actual.count > shown ? ["…"] : [])
    let count = max(expected.count, actual.count)
    let widths = (0..<count).map { index in
      max(
        index < expected.count ? Format.columns(expected[index]) : 0,
        index < actual.count ? Format.columns(actual[index]) : 0)
    }
    func line(_ label: String, _ values: [String]) -> String {
      var text = Format.pad(label, 10)
      for (index, value) in values.enumerated() { text += Format.pad(value, widths[index] + 1) }
      while text.last == " " { text.removeLast() }
      return text
    }
    var lines = [line("expected", expected), line("actual", actual)]
    if let index = difference {
      lines.append(String(repeating: " ", count: 10 + widths.prefix(index).map { $0 + 1 }.reduce(0, +)) + "^")
    }
    return lines
  }
}

extension Marbles {
  /// pipesh's reading of a diagram (`''` inside quotes a quote, or RxJS's), as its events, each
  /// step `shift` later (RxJS's frame 0 is step 1).
  init(_ diagram: MarbleDiagram, shift: Int = 0) {
    var events: [(step: Int, event: Event)] = []
    for step in diagram.steps {
      for event in step.events {
        switch event {
        case .value(let text): events.append((step.step + shift, .value(DiagnosticFormatter.visible(text))))
        case .finish: events.append((step.step + shift, .finished))
        case .fail: events.append((step.step + shift, .failed))
        case .cancel: events.append((step.step + shift, .cancelled))
        }
      }
    }
    self.init(events: events, length: (diagram.steps.last?.step ?? 0) + shift)
  }
}
