import OpenCombine
import PipeCombine

/// The small OpenCombine programs the tests compare `compare`'s Combine column with: written here
/// directly against OpenCombine (not through pipesh's counterparts), driven by their own marble
/// input on a `VirtualScheduler`, drawn by their own recorder.
final class CombineProgram {
  typealias Time = VirtualScheduler.SchedulerTimeType
  let scheduler = VirtualScheduler()
  private var events: [(column: Int, text: String)] = []
  private var cancellables: [AnyCancellable] = []

  struct Failure: Error {}

  /// A marble diagram's events as a publisher, one step a second from the subscription on: a
  /// character is a value, `-` nothing, `|` the end, `^` a failure (no groups, no quotes).
  func marble(_ diagram: String) -> AnyPublisher<String, Failure> {
    Deferred { [scheduler] () -> PassthroughSubject<String, Failure> in
      let subject = PassthroughSubject<String, Failure>()
      let start = scheduler.now
      var step: Int64 = 0
      for character in diagram where character != " " {
        step += 1
        let time = start.advanced(by: .seconds(Int(step)))
        switch character {
        case "-": continue
        case "|": scheduler.schedule(after: time) { subject.send(completion: .finished) }
        case "^": scheduler.schedule(after: time) { subject.send(completion: .failure(Failure())) }
        default: scheduler.schedule(after: time) { subject.send(String(character)) }
        }
      }
      if !diagram.contains("|"), !diagram.contains("^") {
        scheduler.schedule(after: start.advanced(by: .seconds(Int(step)))) { subject.send(completion: .finished) }
      }
      return subject
    }.eraseToAnyPublisher()
  }

  /// Runs `publisher` for at most 100 seconds and draws what it published, a column a second.
  func draw<Output>(
    _ publisher: some Publisher<Output, some Error>, _ text: @escaping (Output) -> String = { "\($0)" }
  ) -> String {
    publisher.sink(
      receiveCompletion: { [unowned self] completion in
        switch completion {
        case .finished: add("|")
        case .failure: add("^")
        }
      },
      receiveValue: { [unowned self] value in add(text(value)) }
    ).store(in: &cancellables)
    scheduler.run(until: Time(nanoseconds: 100_000_000_000))
    cancellables.removeAll()
    return line
  }

  private func add(_ text: String) {
    events.append((max(1, Int(scheduler.now.nanoseconds / 1_000_000_000)), text))
  }

  private var line: String {
    guard let last = events.last?.column else { return "" }
    var out = ""
    for column in 1...last {
      let here = events.filter { $0.column == column }.map { $0.text.count == 1 ? $0.text : "'\($0.text)'" }
      // Quoted values side by side are written apart: '10' '11', not '10''11'.
      func joined(_ symbols: [String], after line: String) -> String {
        symbols.reduce(into: line) { line, symbol in
          if line.hasSuffix("'"), symbol.hasPrefix("'") { line += " " }
          line += symbol
        }
      }
      out =
        here.isEmpty
        ? out + "-" : here.count == 1 ? joined(here, after: out) : out + "[" + joined(here, after: "") + "]"
    }
    return out
  }
}
