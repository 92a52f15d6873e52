import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `print`: prints every element (added when a pipeline ends without a sink).
  enum Print {
    static func run(label: String?, time: Bool) -> Run {
      .sink(
        { input in
          let label = label.map { "\($0): " } ?? ""
          let time = time
          let context = input.context
          return ForEach { value, output in
            let stamp = time ? context.sessionTime.stampText + " " : ""
            output.emit(value, text: stamp + label + value.printed)
          }
        })
    }
  }
}
