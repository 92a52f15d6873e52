import OpenCombine
import PipeRuntime
import PipeSema

extension Counterparts {
  /// The sources: `from`/`range` are `Publishers.Sequence`, `timer` and `marble` send on the
  /// virtual scheduler.
  static let sources: [Counterpart] = [
    Counterpart(
      "timer", "PassthroughSubject + repeating action on the scheduler", origin: .virtualSource
    ) { input in
      let interval = try input.stride("interval")
      let scheduler = input.scheduler
      return Deferred { () -> AnyPublisher<Value, any Error> in
        let subject = PassthroughSubject<Value, any Error>()
        var count = 0
        let ticks = scheduler.schedule(after: scheduler.now.advanced(by: interval), interval: interval) {
          subject.send(.int(count))
          count += 1
        }
        return subject.handleEvents(receiveCancel: { ticks.cancel() }).eraseToAnyPublisher()
      }.eraseToAnyPublisher()
    },
    Counterpart("range", "Publishers.Sequence (stride(from:through:by:).publisher)") { input in
      let (from, through, by) = (try input.value("from"), try input.value("through"), input.stage.value("by"))
      if case .int(let a) = from, case .int(let b) = through, case .int(let step) = by ?? .int(1) {
        return Publishers.Sequence(sequence: stride(from: a, through: b, by: step).lazy.map { Value.int($0) })
          .eraseToAnyPublisher()
      }
      guard let a = from.number, let b = through.number, let step = (by ?? .int(1)).number else {
        throw input.bug("a range of \(from.printed) through \(through.printed)")
      }
      return Publishers.Sequence(sequence: stride(from: a, through: b, by: step).lazy.map { Value.double($0) })
        .eraseToAnyPublisher()
    },
    Counterpart("from", "Publishers.Sequence ([…].publisher)") { input in
      Publishers.Sequence(sequence: try input.values("values")).eraseToAnyPublisher()
    },
    Counterpart("marble", "PassthroughSubject + sends scheduled per step", origin: .virtualSource) {
      input in
      let diagram = try input.marble("diagram")
      let tick = VirtualScheduler.SchedulerTimeType.Stride(input.stage.duration("tick") ?? .seconds(1))
      let scheduler = input.scheduler
      let stage = input.stage.text
      return Deferred { () -> PassthroughSubject<Value, any Error> in
        let subject = PassthroughSubject<Value, any Error>()
        let start = scheduler.now
        for step in diagram.events {
          for event in step.events {
            scheduler.schedule(after: start.advanced(by: tick * .init(nanoseconds: Int64(step.step)))) {
              switch event {
              case .value(let text): subject.send(.string(text))
              case .finish, .cancel: subject.send(completion: .finished)
              case .fail:
                subject.send(completion: .failure(PipelineError(stage: stage, message: "failed (^ in the diagram)")))
              }
            }
          }
        }
        // A diagram without |, ^ or ; finishes right after its last event, as the AA side does.
        if let last = diagram.events.last, !last.events.contains(where: \.isEnd) {
          scheduler.schedule(after: start.advanced(by: tick * .init(nanoseconds: Int64(last.step)))) {
            subject.send(completion: .finished)
          }
        }
        return subject
      }.eraseToAnyPublisher()
    },
    .none("random", "Combine has no random source; a seeded generator's values through [...].publisher"),
    .none("lines", "Combine has no file source; FileHandle's notifications or [lines].publisher"),
    .none("stdin", "Combine has no standard-input source"),
    Counterpart("channel", "PassthroughSubject (nothing sends to it during compare)") { _ in
      PassthroughSubject<Value, any Error>().eraseToAnyPublisher()
    },
    Counterpart("empty", "Empty()") { _ in Empty().eraseToAnyPublisher() },
    Counterpart("never", "Empty(completeImmediately: false)") { _ in
      Empty(completeImmediately: false).eraseToAnyPublisher()
    },
    Counterpart("fail", "Fail(error:)") { input in
      Fail(error: PipelineError(stage: input.stage.text, message: try input.string("message"))).eraseToAnyPublisher()
    },
  ]
}

extension Value {
  /// An Int or Double as a Double.
  var number: Double? {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    default: nil
    }
  }
}

extension MarbleDiagram.Event {
  var isEnd: Bool {
    if case .value = self { return false }
    return true
  }
}
