import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `tap`: prints 'LABEL: value', 'LABEL: finished', 'LABEL: cancelled'… and passes everything on.
  enum Tap {
    static let entry = Operator(
      OperatorSignature(
        "tap", .operator, usage: "tap \"LABEL\" [time: Bool]",
        summary: "prints 'LABEL: value', 'LABEL: finished', 'LABEL: cancelled'… and passes everything on",
        parameters: [
          .positional("label", .string, "the label"),
          .labelled("time", .bool, "prefix the time on the session's clock, as +1.500s"),
        ], example: "from 1 2 | tap \"seen\" | drain",
        implementation: "own (TapSequence)", typing: Typing.same),
      build: { input in
        ValueSequence(
          TapSequence(
            base: input.upstream, label: try input.string("label"), time: input.optionalBool("time") ?? false,
            context: input.context))
      })
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
