import AsyncAlgorithms
import Foundation

/// pipesh's `lines "FILE"`: the file's lines, or the error of opening it.
func lines(ofFile path: String, stage: String) -> AsyncThrowingStream<String, Error> {
  AsyncThrowingStream { continuation in
    guard let file = fopen(path, "r") else {
      let reason = String(cString: strerror(errno))
      let message = "cannot open '\(path)': \(reason)"
      continuation.finish(throwing: StageError(stage: stage, message: message))
      return
    }
    defer { fclose(file) }
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0, let line {
      var text = String(cString: line)
      if text.hasSuffix("\n") { text.removeLast() }
      continuation.yield(text)
    }
    continuation.finish()
  }
}
