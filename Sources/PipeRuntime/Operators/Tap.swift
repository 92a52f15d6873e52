import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `tap`: prints 'LABEL: value', 'LABEL: finished', 'LABEL: cancelled'… and passes everything on.
  enum Tap {
    static func run(label: String, time: Bool) -> Run {
      .node(
        build: { input in
          ValueSequence(
            TapSequence(
              base: input.upstream, label: label, time: time,
              context: input.context))
        })
    }
  }
}

/// `tap "LABEL"`: prints what passes and how the stream ends.
struct TapSequence: AsyncSequence, Sendable {
  typealias Element = Value
  let base: ValueSequence
  let label: String
  let time: Bool
  let context: JobContext

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), reporter: Reporter(label: label, time: time, context: context))
  }

  /// Prints `LABEL: cancelled` when the iterator goes away before its end.
  final class Reporter {
    let label: String
    let time: Bool
    let context: JobContext
    var ended = false

    init(label: String, time: Bool, context: JobContext) {
      self.label = label
      self.time = time
      self.context = context
    }

    func say(_ text: String) {
      context.emit((time ? context.sessionTime.stampText + " " : "") + "\(label): \(text)")
    }

    func end(_ text: String) {
      guard !ended else { return }
      ended = true
      say(text)
    }

    deinit { end("cancelled") }
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: ValueSequence.Iterator
    let reporter: Reporter

    mutating func next() async throws -> Value? {
      do {
        guard let value = try await base.next() else {
          reporter.end(Task.isCancelled ? "cancelled" : "finished")
          return nil
        }
        reporter.say(value.printed)
        return value
      } catch is CancellationError {
        reporter.end("cancelled")
        throw CancellationError()
      } catch {
        reporter.end("failed: \(error)")
        throw error
      }
    }
  }
}
