import PipeRuntime
import PipeSema

/// Reads one node's events in order, by its flow: what went in, what came out, what was let go of.
struct FlowReader {
  typealias Event = DrawObserver.SequencedEvent
  typealias Element = (value: String, time: Duration)
  let node: Node
  let flow: ElementFlow
  /// Elements read in the ask being answered (a pulling operator), or held (a queue, a debounce,
  /// a merge), oldest first.
  var held: [Element] = []
  /// For a node that combines its inputs' elements (`zip`, `combineLatest`): what it read of each
  /// input and has not combined yet, oldest first.
  var heldByInput: [[Element]]
  /// For `combineLatest`: each input's element it combined last (it stays in every tuple until a
  /// newer one of that input comes).
  var combinedByInput: [String?]
  /// For `share`: the elements it passed on, which it passes on again to its other readers.
  var shared: Set<String> = []
  /// Asks not yet answered.
  var asking = false
  /// A queue's element handed straight to a consumer that was waiting.
  var handed: Element?
  var passed = 0
  /// Elements it passed on that are none of its inputs' (separators, a share's copies).
  var made = 0
  var lost: [ElementFates.Lost] = []
  /// The last element passed on (`removeDuplicates` says which one an element duplicated).
  var lastPassed: String?
  var problem: String?
  /// When the node ended.
  var ended: Duration?
  /// A queue's count of what it held, at each instant it changed (an element handed straight to a
  /// consumer counts until it is answered: `delay` holds it for its interval).
  var holdings: [ElementFates.Holding] = []

  init(node: Node, flow: ElementFlow, inputCount: Int) {
    self.node = node
    self.flow = flow
    heldByInput = Array(repeating: [], count: inputCount)
    combinedByInput = Array(repeating: nil, count: inputCount)
  }

  mutating func fail(_ text: String) { if problem == nil { problem = text } }

  /// Whether it queues its input (`buffer`, `delay`): its holdings are kept.
  var queues: Bool {
    if case .queues = flow { true } else { false }
  }

  /// A queue's count after an event, kept when it changed.
  mutating func noteHolding(at time: Duration) {
    guard queues else { return }
    let count = held.count + (handed == nil ? 0 : 1)
    guard count != holdings.last?.held ?? 0 else { return }
    // Changes within one instant (an element handed straight on) leave only where they ended.
    if let last = holdings.last, last.time == time { holdings.removeLast() }
    if count != holdings.last?.held ?? 0 { holdings.append(.init(time: time, held: count)) }
  }

  mutating func input(_ event: Event, from input: Int) {
    guard case .element(let value) = event.kind else { return }
    let element = (value: value.printed, time: event.time)
    switch flow {
    case .source, .sink: return
    case .answersWithLastRead, .answersWithFirstRead, .gathersReads:
      guard asking else { return fail("an element went in while nobody asked it") }
      held.append(element)
    case .queues(let policy):
      if asking, handed == nil, held.isEmpty {
        handed = element
        return
      }
      guard let policy, let limit = node.dropsBeyond, held.count >= limit else { return held.append(element) }
      switch policy {
      case .newest:
        if let oldest = held.first {
          held.removeFirst()
          lost.append(
            .init(value: oldest.value, time: oldest.time, at: event.time, fate: .lost(.bufferFull(policy), by: nil)))
        }
        held.append(element)
      case .oldest, .bounded:
        lost.append(
          .init(value: element.value, time: element.time, at: event.time, fate: .lost(.bufferFull(policy), by: nil)))
      }
    case .zips, .combinesLatest:
      guard heldByInput.indices.contains(input) else { return fail("an element came from an input it does not have") }
      heldByInput[input].append(element)
    // Which one a debounce kept is said when one comes out: one that came at the instant the quiet
    // time ended may come after the element that goes out then.
    case .keepsNewest, .passesInputs, .shares, .intersperses, .pairsAdjacent, .gathersChunks, .expands:
      held.append(element)
    }
  }

  mutating func own(_ event: Event) {
    switch event.kind {
    case .asked:
      asking = true
    case .sending, .start:
      return
    case .element(let value):
      asking = false
      answered(with: value, at: event.time)
    case .finished:
      asking = false
      ended = event.time
      switch flow {
      case .answersWithLastRead(let loss?):
        letGo(held, loss, by: nil, at: event.time)
        held = []
      case .answersWithFirstRead(let loss):
        letGo(held, loss, by: nil, at: event.time)
        held = []
      case .answersWithLastRead(nil):
        if !held.isEmpty { fail("it read an element and ended without passing it on") }
      default: return
      }
    case .failed, .cancelled:
      ended = event.time  // what it held is said at its end
    }
  }

  private mutating func letGo(_ elements: [Element], _ loss: Loss, by: String?, at: Duration) {
    for element in elements {
      let by = loss == .duplicate ? lastPassed : by
      // A rule refuses an element as it reads it; a throttle lets it go when its window's element
      // comes out.
      let left = loss == .throttled ? at : element.time
      lost.append(.init(value: element.value, time: element.time, at: left, fate: .lost(loss, by: by)))
    }
  }

  /// The element a debounce passed on at `time`: the newest equal to it that had been the newest
  /// for its quiet time then, or, at its input's end (which passes on what it keeps at once), the
  /// newest equal to it.
  private func debounced(_ value: String, at time: Duration, quiet: Duration?) -> Int? {
    let equal = held.indices.filter { held[$0].value == value }
    let quietEnded = equal.last { index in
      guard let quiet else { return false }
      let ends = held[index].time + quiet
      return ends <= time && (index + 1 == held.count || held[index + 1].time >= ends)
    }
    return quietEnded ?? equal.last
  }

  private mutating func answered(with element: Value, at time: Duration) {
    let value = element.printed
    switch flow {
    case .source, .sink: return
    case .answersWithLastRead(let loss):
      guard let last = held.last else { return fail("it passed on an element it had not read") }
      if let loss {
        letGo(held.dropLast(), loss, by: loss == .throttled ? last.value : nil, at: time)
      } else if held.count > 1 {
        return fail("it read \(held.count) elements for one ask")
      }
      held = []
      passed += 1
      lastPassed = value
    case .answersWithFirstRead(let loss):
      guard let first = held.first else { return fail("it passed on an element it had not read") }
      letGo(Array(held.dropFirst()), loss, by: first.value, at: time)
      held = []
      passed += 1
      lastPassed = value
    case .gathersReads:
      guard !held.isEmpty else { return fail("it passed on a chunk of nothing read") }
      for element in held {
        lost.append(.init(value: element.value, time: element.time, at: time, fate: .gathered(into: value)))
      }
      held = []
    case .queues:
      if let handed {
        guard handed.value == value else { return fail("it passed on \(value), not \(handed.value) it was handed") }
        self.handed = nil
      } else {
        guard let first = held.first, first.value == value else {
          return fail("it passed on \(value), not the first it held (\(held.first?.value ?? "nothing"))")
        }
        held.removeFirst()
      }
      passed += 1
    case .keepsNewest(let quiet):
      guard let index = debounced(value, at: time, quiet: quiet) else {
        return fail("it passed on \(value), which it did not hold")
      }
      for (earlier, newer) in zip(held[..<index], held[1..<(index + 1)]) {
        lost.append(
          .init(value: earlier.value, time: earlier.time, at: newer.time, fate: .lost(.replaced, by: newer.value)))
      }
      held.removeFirst(index + 1)
      passed += 1
    case .passesInputs:
      guard let index = held.firstIndex(where: { $0.value == value }) else {
        return fail("it passed on \(value), which none of its inputs had")
      }
      held.remove(at: index)
      passed += 1
    case .shares:
      // Equal elements cannot be told apart: the oldest it has not passed on is taken to be it.
      if let first = held.first, first.value == value {
        held.removeFirst()
        shared.insert(value)
        passed += 1
      } else if shared.contains(value) {
        made += 1
      } else {
        fail("it passed on \(value), which it had not read")
      }
    case .intersperses:
      if let first = held.first, first.value == value {
        held.removeFirst()
        passed += 1
      } else {
        made += 1
      }
    case .zips:
      guard case .tuple(let parts) = element, parts.count == heldByInput.count,
        zip(parts, heldByInput).allSatisfy({ $0.printed == $1.first?.value })
      else { return fail("it passed on \(value), not a tuple of each input's oldest element it had not paired") }
      for input in heldByInput.indices {
        let paired = heldByInput[input].removeFirst()
        lost.append(.init(value: paired.value, time: paired.time, at: time, fate: .combined(into: value)))
      }
    case .combinesLatest:
      guard case .tuple(let parts) = element, parts.count == heldByInput.count else {
        return fail("it passed on \(value), not a tuple of its inputs' elements")
      }
      for (input, part) in parts.enumerated() {
        let elements = heldByInput[input]
        if let newest = elements.lastIndex(where: { $0.value == part.printed }) {
          for (earlier, newer) in zip(elements[..<newest], elements[1..<(newest + 1)]) {
            lost.append(
              .init(value: earlier.value, time: earlier.time, at: newer.time, fate: .lost(.overtaken, by: newer.value)))
          }
          let combined = elements[newest]
          lost.append(.init(value: combined.value, time: combined.time, at: time, fate: .combined(into: value)))
          heldByInput[input].removeFirst(newest + 1)
          combinedByInput[input] = part.printed
        } else if combinedByInput[input] != part.printed {
          return fail("it passed on \(value), with an element of input \(input + 1) it had not read")
        }
      }
    case .pairsAdjacent:
      guard case .tuple(let parts) = element, parts.count == 2, let newest = held.last,
        newest.value == parts[1].printed
      else { return fail("it passed on \(value), not a pair ending with the element it read last") }
      for element in held {
        lost.append(.init(value: element.value, time: element.time, at: time, fate: .combined(into: value)))
      }
      held = []
    case .gathersChunks:
      guard case .array(let parts) = element, !parts.isEmpty, parts.count <= held.count,
        zip(parts, held).allSatisfy({ $0.printed == $1.value })
      else { return fail("it passed on the chunk \(value), not of the oldest elements it read") }
      for element in held.prefix(parts.count) {
        lost.append(.init(value: element.value, time: element.time, at: time, fate: .gathered(into: value)))
      }
      held.removeFirst(parts.count)
    case .expands:
      return  // its pipelines' elements: what it read is settled at its end, by the pipelines it built
    }
  }

  /// At the node's end, what it read for an answer it never gave: only the element it was keeping
  /// for that answer is still held (in flight); those it had let go of already say how (a
  /// throttle's window keeps one, a debounce its newest; a rule refuses an element as it reads it).
  private mutating func settleHeld() {
    guard let last = held.last, let first = held.first, let at = ended else { return }
    switch flow {
    case .answersWithLastRead(.throttled?):
      letGo(held.dropLast(), .throttled, by: last.value, at: at)
      held = [last]
    case .answersWithLastRead(let loss?):
      letGo(held, loss, by: nil, at: at)
      held = []
    case .answersWithFirstRead(let loss):
      letGo(Array(held.dropFirst()), loss, by: first.value, at: at)
      held = [first]
    case .keepsNewest:
      for (earlier, newer) in zip(held.dropLast(), held.dropFirst()) {
        lost.append(
          .init(value: earlier.value, time: earlier.time, at: newer.time, fate: .lost(.replaced, by: newer.value)))
      }
      held = [last]
    case .answersWithLastRead(nil), .source, .sink, .gathersReads, .queues, .passesInputs, .shares, .intersperses,
      .zips, .combinesLatest, .pairsAdjacent, .gathersChunks, .expands:
      return
    }
  }

  /// At a combining or expanding node's end, what became of what it read and did not combine: a
  /// `zip` that ended let go of what it read of its longer inputs, a `combineLatest` of what no
  /// other input had an element for; a `flatMap` built a pipeline of each element it read. What
  /// is left was in flight.
  private mutating func settleInputs(_ node: Node) {
    let at = ended
    let finished = node.state == .finished
    switch flow {
    case .zips:
      for element in heldByInput.joined() {
        if finished {
          lost.append(
            .init(value: element.value, time: element.time, at: at ?? element.time, fate: .lost(.unpaired, by: nil)))
        } else {
          held.append(element)
        }
      }
    case .combinesLatest:
      for (input, elements) in heldByInput.enumerated() {
        guard let newest = elements.last else { continue }
        for (earlier, newer) in zip(elements.dropLast(), elements.dropFirst()) {
          lost.append(
            .init(value: earlier.value, time: earlier.time, at: newer.time, fate: .lost(.overtaken, by: newer.value)))
        }
        let alone = heldByInput.indices.contains {
          $0 != input && heldByInput[$0].isEmpty && combinedByInput[$0] == nil
        }
        if finished, alone {
          lost.append(
            .init(value: newest.value, time: newest.time, at: at ?? newest.time, fate: .lost(.uncombined, by: nil)))
        } else {
          held.append(newest)
        }
      }
    case .pairsAdjacent:
      guard finished else { return }
      for element in held {
        lost.append(
          .init(value: element.value, time: element.time, at: at ?? element.time, fate: .lost(.alone, by: nil)))
      }
      held = []
    case .expands:
      let built = (node.children?.all.count ?? 0) + (node.children?.earlier ?? 0)
      for element in held.prefix(built) {
        lost.append(.init(value: element.value, time: element.time, at: element.time, fate: .expanded))
      }
      held.removeFirst(min(built, held.count))
    case .source, .sink, .answersWithLastRead, .answersWithFirstRead, .gathersReads, .queues, .keepsNewest,
      .passesInputs, .shares, .intersperses, .gathersChunks:
      return
    }
    heldByInput = heldByInput.map { _ in [] }
  }

  /// The node's end: what it still held was in flight (its job cancelled or failed) or never asked
  /// for (its consumer stopped asking).
  mutating func end(_ node: Node) {
    settleInputs(node)
    settleHeld()
    let remaining = (handed.map { [$0] } ?? []) + held
    guard !remaining.isEmpty else { return }
    let cancelled = node.state == .cancelled && node.reason == CancelReason.jobCancelled.rawValue
    let fate: ElementFates.Fate
    switch node.state {
    case .failed: fate = .inFlight(cancelled: false)
    case .cancelled: fate = cancelled ? .inFlight(cancelled: true) : .neverAskedFor
    case .finished, .idle, .running:
      return fail("it ended \(node.state.rawValue) holding \(remaining.count) elements")
    }
    for element in remaining {
      lost.append(.init(value: element.value, time: element.time, at: ended ?? element.time, fate: fate))
    }
    held = []
    handed = nil
  }
}
