/// Combine's and Swift concurrency's words that are not pipesh's: what a Swift engineer moving
/// from Combine types, with the pipesh word and the AsyncAlgorithms (or standard library) API that
/// do the same, or what to write instead where there is no equivalent. An unknown stage that is
/// one of them gets this as its did-you-mean; `help NAME` explains it; `help combine` lists the
/// ones that are not just another name of an operator (the operators' own rows come from their
/// Combine counterparts).
public struct ForeignName: Sendable {
  /// The word as typed: `prefix`, `PassthroughSubject`.
  public let name: String
  /// Where it comes from, as written there: `Combine prefix(_:)`.
  public let api: String
  /// The pipesh words (operators or commands) that do it; empty when pipesh has none.
  public let pipesh: [String]
  /// The AsyncAlgorithms or standard-library API, or what Swift has instead.
  public let swift: String
  /// How they differ, or what to write instead: one line.
  public let advice: String
  /// Just another name of an operator whose own counterpart row says the rest (`dropFirst` for
  /// `drop`): left out of `help combine`'s table.
  public let isAlias: Bool

  init(
    _ name: String, _ api: String, pipesh: [String], swift: String, _ advice: String, alias: Bool = false
  ) {
    self.name = name
    self.api = api
    self.pipesh = pipesh
    self.swift = swift
    self.advice = advice
    self.isAlias = alias
  }

  /// The notes of an unknown stage with this name: the pipesh word and its Swift API (or that
  /// there is none), then how they differ or what to write instead.
  public var notes: [String] {
    guard !pipesh.isEmpty else { return ["'\(name)' is \(api); pipesh has no equivalent; in Swift: \(swift)", advice] }
    let words = pipesh.map { "'\($0)'" }.joined(separator: " or ")
    let help = pipesh.map { "'help \($0)'" }.joined(separator: ", ")
    return ["did you mean \(words)? '\(name)' is \(api); in Swift: \(swift)", advice + " (\(help))"]
  }

  /// The entry for `name`, if it is one.
  public static func named(_ name: String) -> ForeignName? { byName[name] }

  private static let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

  /// Every entry, Combine's first, in the order `help combine` lists them.
  public static let all: [ForeignName] = [
    ForeignName(
      "prefix", "Combine's and AsyncSequence's prefix(_:)", pipesh: ["take"], swift: "AsyncSequence prefix(_:)",
      "Combine's finishes when the element after the last arrives, AsyncSequence's at the last", alias: true),
    ForeignName(
      "dropFirst", "Combine's and AsyncSequence's dropFirst(_:)", pipesh: ["drop"],
      swift: "AsyncSequence dropFirst(_:)", "the same", alias: true),
    ForeignName(
      "tryMap", "Combine tryMap(_:)", pipesh: ["map"], swift: "AsyncSequence map(_:) with a throwing closure",
      "pipesh's closures can fail (overflow, division by zero), so map is tryMap", alias: true),
    ForeignName(
      "tryFilter", "Combine tryFilter(_:)", pipesh: ["filter"], swift: "AsyncSequence filter(_:)",
      "filter's closure can fail, as tryFilter's", alias: true),
    ForeignName(
      "tryCompactMap", "Combine tryCompactMap(_:)", pipesh: ["compactMap"], swift: "AsyncSequence compactMap(_:)",
      "compactMap's closure can fail, as tryCompactMap's", alias: true),
    ForeignName(
      "tryScan", "Combine tryScan(_:_:)", pipesh: ["reductions"], swift: "AsyncAlgorithms reductions(_:_:)",
      "the same: each partial result goes out", alias: true),
    ForeignName(
      "tryReduce", "Combine tryReduce(_:_:)", pipesh: ["reduce"], swift: "AsyncSequence reduce(_:_:)",
      "the same: the last partial result", alias: true),
    ForeignName(
      "tryPrefix", "Combine tryPrefix(while:)", pipesh: ["takeWhile"], swift: "AsyncSequence prefix(while:)",
      "the same", alias: true),
    ForeignName(
      "switchToLatest", "Combine switchToLatest()", pipesh: ["flatMapLatest"],
      swift: "AsyncAlgorithms flatMapLatest(_:)",
      "map { … }.switchToLatest() is one flatMapLatest { … }: each element's pipeline cancels the one before; AA 1.1.4's loses a failure that comes while nobody asks (swift exports pipesh's fix)",
      alias: true),
    ForeignName(
      "handleEvents", "Combine handleEvents(receiveOutput:…)", pipesh: ["tap"],
      swift: "AsyncSequence map { print($0); return $0 }", "tap sees each element on its way", alias: true),
    ForeignName(
      "ignoreOutput", "Combine ignoreOutput()", pipesh: ["drain"], swift: "a for-await loop that does nothing",
      "drain runs the pipeline to its end and keeps nothing", alias: true),
    ForeignName(
      "append", "Combine append(_:)", pipesh: ["chain"], swift: "AsyncAlgorithms chain(_:_:)",
      "chain(P, Q) runs Q after P, as P.append(Q)", alias: true),
    ForeignName(
      "prepend", "Combine prepend(_:)", pipesh: ["chain"], swift: "AsyncAlgorithms chain(_:_:)",
      "chain(Q, P) runs Q first, as P.prepend(Q)", alias: true),
    ForeignName(
      "sink", "Combine sink(receiveValue:)", pipesh: ["print", "drain"], swift: "for await value in sequence { … }",
      "a for-await loop in a Task replaces sink and its AnyCancellable; print shows each value, drain keeps none"),
    ForeignName(
      "assign", "Combine assign(to:on:)", pipesh: [], swift: "for await value in sequence { object.property = value }",
      "set the property in a for-await loop, in a Task on the object's actor (@MainActor for UI)"),
    ForeignName(
      "receive", "Combine receive(on:)", pipesh: [], swift: "nothing: an AsyncSequence has no scheduler",
      "the task that iterates decides where elements are handled: iterate in a @MainActor Task for the UI"),
    ForeignName(
      "subscribe", "Combine subscribe(on:)", pipesh: [], swift: "nothing: the work runs on the iterating task",
      "start the iteration where it should run: a Task, a task group, or Task.detached"),
    ForeignName(
      "store", "Combine store(in:) and AnyCancellable", pipesh: ["cancel"],
      swift: "keep the Task and call its cancel() (in deinit, onDisappear, or .task { })",
      "a Set<AnyCancellable> cancels its subscriptions when its owner is released; a Task whose handle is dropped"
        + " keeps running (and keeps self alive if it captures it): cancel it yourself; in pipesh: 'cancel N'",
      alias: true),
    ForeignName(
      "AnyCancellable", "Combine AnyCancellable", pipesh: ["cancel"],
      swift: "keep the Task and call its cancel() (in deinit, onDisappear, or .task { })",
      "an AnyCancellable cancels its subscription when it is released; a Task whose handle is dropped keeps running"
        + " (a loop capturing self keeps the view model alive, so deinit never comes): cancel it yourself; a pipesh"
        + " job runs until it ends or 'cancel N' (Examples/released-owner.pipe)"),
    ForeignName(
      "eraseToAnyPublisher", "Combine eraseToAnyPublisher()", pipesh: [],
      swift: "some AsyncSequence<Element, Failure>, or any AsyncSequence",
      "nothing to write in pipesh: every stage's element type is inferred"),
    ForeignName(
      "PassthroughSubject", "Combine PassthroughSubject", pipesh: ["channel", "stream"],
      swift: "AsyncAlgorithms AsyncChannel, or AsyncStream with its continuation",
      "a subject gives each value to every subscriber and drops what nobody asks for; a channel gives each value to"
        + " one consumer (several split them) and send waits until one takes it, so a consumer that comes late still"
        + " gets it; a stream's yield never waits and its buffer drops (Examples/channel-is-no-subject.pipe)"),
    ForeignName(
      "CurrentValueSubject", "Combine CurrentValueSubject (with .values)", pipesh: ["subject"],
      swift: "none in AsyncAlgorithms (pipesh's own subject)",
      "every consumer gets the current value first, then each new one; a slow consumer gets the newest"),
    ForeignName(
      "Timer", "Combine Timer.publish(every:on:in:).autoconnect()", pipesh: ["timer"],
      swift: "AsyncAlgorithms AsyncTimerSequence (AsyncTimerSequence.repeating(every:))",
      "Combine's timer emits Dates, AA's the clock's Instants (ContinuousClock.Instant); pipesh's timer N prints"
        + " a tick count 0, 1, 2… every N seconds on the job's clock (virtual with --virtual-time)"),
    ForeignName(
      "Just", "Combine Just", pipesh: ["from"], swift: "[value].async (AsyncAlgorithms)", "from V emits V and finishes"
    ),
    ForeignName(
      "Future", "Combine Future", pipesh: [], swift: "an async function, or a Task's value",
      "one value needs no sequence: await it; in pipesh, from V or work"),
    ForeignName(
      "Deferred", "Combine Deferred", pipesh: [], swift: "nothing: an AsyncSequence starts its work when iterated",
      "every pipeline is cold already: each run builds its nodes"),
    ForeignName(
      "catch", "Combine catch(_:) and replaceError(with:)", pipesh: [], swift: "do { for try await … } catch { … }",
      "AsyncAlgorithms has no catch operator: catch around the loop; in pipesh a failure ends the job"),
    ForeignName(
      "replaceError", "Combine replaceError(with:)", pipesh: [], swift: "do { for try await … } catch { … }",
      "catch around the loop and use the replacement there", alias: true),
    ForeignName(
      "retry", "Combine retry(_:)", pipesh: [], swift: "a loop around the for-await loop",
      "iterate again (a new iteration starts the sequence again)"),
    ForeignName(
      "multicast", "Combine multicast(_:) and autoconnect()", pipesh: ["share"], swift: "AsyncAlgorithms share()",
      "share starts at the first consumer and sends each element to every consumer there is", alias: true),
    ForeignName(
      "values", "Combine's publisher.values (AsyncPublisher)", pipesh: ["subject", "stream"],
      swift: "for await value in publisher.values { … } (asks the publisher for one value per next())",
      "it depends on the publisher: a CurrentValueSubject's (and @Published's) gives the current value first, then"
        + " the newest when the loop asks again (pipesh's subject); a PassthroughSubject's gives only values sent"
        + " after the loop first asks, and drops those sent while the loop body runs (no demand): pipesh's"
        + " stream NAME buffering: newest 1 keeps one instead of none"),
    ForeignName(
      "Published", "Combine @Published and its $property publisher", pipesh: ["subject"],
      swift: "@Observable (Observation) in new code; with Combine: for await v in $property.values",
      "$property is a current value: a new subscriber gets the value first, as subject NAME initial: V;"
        + " combineLatest($a.values, $b.values) is the view model's form (Docs/combine.md)"),
    ForeignName(
      "NotificationCenter", "Foundation NotificationCenter publisher(for:) and notifications(named:)",
      pipesh: ["stream", "share"], swift: "for await note in NotificationCenter.default.notifications(named: .x)",
      "post never waits for an observer: a stream's send; every observer sees every post, so read it through a share"
        + " fragment (let posts = stream NAME | share); posts before a loop starts are not seen"
        + " (Examples/notifications.pipe)"),
    ForeignName(
      "notifications", "Foundation NotificationCenter.notifications(named:)", pipesh: ["stream", "share"],
      swift: "for await note in NotificationCenter.default.notifications(named: .x)",
      "post never waits: a stream's send; every observer sees every post: a share fragment", alias: true),
    ForeignName(
      "replaceNil", "Combine replaceNil(with:)", pipesh: ["map"], swift: "map { $0 ?? value }",
      "pipesh's closures have no ??: map { $0 == nil ? V : $0 } | compacted gives V for nil (and a non-optional);"
        + " compacted alone drops the nils"),
    ForeignName(
      "setFailureType", "Combine setFailureType(to:)", pipesh: [],
      swift: "nothing: an AsyncSequence's Failure is inferred (some AsyncSequence<Element, any Error>)",
      "nothing to write: a pipesh stage can fail or not and the checker needs no error type; mapError changes"
        + " the failure itself"),
    ForeignName(
      "breakpoint", "Combine breakpoint(receiveSubscription:receiveOutput:receiveCompletion:)", pipesh: [],
      swift: "none: a debugger breakpoint in a map closure",
      "no equivalent: pipesh stops no debugger; the nearest are step (the virtual clock an instant at a time),"
        + " trace (every event) and tap (each element)"),
    ForeignName(
      "AsyncStream", "Swift AsyncStream", pipesh: ["stream"], swift: "AsyncStream.makeStream(bufferingPolicy:)",
      "yield never waits; a full buffer drops by its policy; several consumers split the elements", alias: true),
    ForeignName(
      "AsyncChannel", "AsyncAlgorithms AsyncChannel", pipesh: ["channel"], swift: "AsyncChannel",
      "send waits until a consumer takes the value", alias: true),
    ForeignName(
      "withTaskGroup", "Swift task groups", pipesh: ["flatMap"], swift: "withTaskGroup(of:)",
      "flatMap { … } concurrency: N runs up to N pipelines at once in a task group, results as they finish",
      alias: true),
    ForeignName(
      "Task", "Swift Task { … } (an unstructured task)", pipesh: ["spawn", "cancel", "tasks"],
      swift: "Task { for await value in sequence { … } }, and its cancel()",
      "a pipesh job runs in a task of its own (P & in the background, 'cancel N' is its cancel()); spawn { P }"
        + " starts an unstructured task per element, as a Task { } in a loop does, which cancelling the job does not"
        + " reach; 'tasks N' shows a job's tasks and those AA's operators start"),
    ForeignName(
      "TaskGroup", "Swift TaskGroup (withTaskGroup(of:))", pipesh: ["flatMap"], swift: "withTaskGroup(of:)",
      "flatMap { … } concurrency: N runs up to N pipelines at once as child tasks, results as they finish",
      alias: true),
    ForeignName(
      "ThrowingTaskGroup", "Swift ThrowingTaskGroup (withThrowingTaskGroup(of:))", pipesh: ["flatMap"],
      swift: "withThrowingTaskGroup(of:)",
      "flatMap { … } concurrency: N: a child's failure cancels the others and fails the job", alias: true),
    ForeignName(
      "withThrowingTaskGroup", "Swift task groups that throw", pipesh: ["flatMap"],
      swift: "withThrowingTaskGroup(of:)",
      "flatMap { … } concurrency: N: a child's failure cancels the others and fails the job", alias: true),
    ForeignName(
      "AsyncThrowingStream", "Swift AsyncThrowingStream", pipesh: ["stream"],
      swift: "AsyncThrowingStream.makeStream(bufferingPolicy:)",
      "yield never waits; a full buffer drops by its policy; to end consumers with an error use a channel NAME"
        + " throws and 'fail NAME \"MESSAGE\"'", alias: true),
    ForeignName(
      "MainActor", "Swift @MainActor", pipesh: [],
      swift: "@MainActor on the type, the function or the Task that iterates",
      "no equivalent: pipesh has no actors and no UI; a job's sink handles its elements one at a time, in order, as"
        + " a for-await loop on the main actor does; to touch the UI, iterate in a @MainActor Task (or .task { })"),
    ForeignName(
      "CombineLatest", "Combine Publishers.CombineLatest", pipesh: ["combineLatest"],
      swift: "AsyncAlgorithms combineLatest(_:_:)", "combineLatest(P, Q) is a.combineLatest(b)", alias: true),
    ForeignName(
      "CombineLatest3", "Combine Publishers.CombineLatest3", pipesh: ["combineLatest"],
      swift: "AsyncAlgorithms combineLatest(_:_:_:)", "combineLatest(P, Q, R) is a.combineLatest(b, c)", alias: true),
    ForeignName(
      "CombineLatest4", "Combine Publishers.CombineLatest4", pipesh: ["combineLatest"],
      swift: "AsyncAlgorithms combineLatest(_:_:_:) nested (it takes at most three)",
      "combineLatest takes two or three inputs, as AA's: nest them, combineLatest(combineLatest(P, Q), R, S)",
      alias: true),
    ForeignName(
      "Zip", "Combine Publishers.Zip", pipesh: ["zip"], swift: "AsyncAlgorithms zip(_:_:)",
      "zip(P, Q) is a.zip(b)", alias: true),
    ForeignName(
      "Zip3", "Combine Publishers.Zip3", pipesh: ["zip"], swift: "AsyncAlgorithms zip(_:_:_:)",
      "zip(P, Q, R) is a.zip(b, c)", alias: true),
    ForeignName(
      "Zip4", "Combine Publishers.Zip4", pipesh: ["zip"],
      swift: "AsyncAlgorithms zip(_:_:_:) nested (it takes at most three)",
      "zip takes two or three inputs, as AA's: nest them, zip(zip(P, Q), R, S)", alias: true),
    ForeignName(
      "Merge", "Combine Publishers.Merge (Merge3 … Merge8, MergeMany)", pipesh: ["merge"],
      swift: "AsyncAlgorithms merge(_:_:) and merge(_:_:_:)",
      "merge(P, Q, …) takes any number of inputs: elements as they come, finished when all have", alias: true),
    ForeignName(
      "Merge3", "Combine Publishers.Merge3", pipesh: ["merge"],
      swift: "AsyncAlgorithms merge(_:_:_:), nested beyond three",
      "merge(P, Q, …) takes any number of inputs: elements as they come, finished when all have", alias: true),
    ForeignName(
      "Merge4", "Combine Publishers.Merge4", pipesh: ["merge"],
      swift: "AsyncAlgorithms merge(_:_:_:), nested beyond three",
      "merge(P, Q, …) takes any number of inputs: elements as they come, finished when all have", alias: true),
    ForeignName(
      "Merge5", "Combine Publishers.Merge5", pipesh: ["merge"],
      swift: "AsyncAlgorithms merge(_:_:_:), nested beyond three",
      "merge(P, Q, …) takes any number of inputs: elements as they come, finished when all have", alias: true),
    ForeignName(
      "Merge6", "Combine Publishers.Merge6", pipesh: ["merge"],
      swift: "AsyncAlgorithms merge(_:_:_:), nested beyond three",
      "merge(P, Q, …) takes any number of inputs: elements as they come, finished when all have", alias: true),
    ForeignName(
      "Merge7", "Combine Publishers.Merge7", pipesh: ["merge"],
      swift: "AsyncAlgorithms merge(_:_:_:), nested beyond three",
      "merge(P, Q, …) takes any number of inputs: elements as they come, finished when all have", alias: true),
    ForeignName(
      "Merge8", "Combine Publishers.Merge8", pipesh: ["merge"],
      swift: "AsyncAlgorithms merge(_:_:_:), nested beyond three",
      "merge(P, Q, …) takes any number of inputs: elements as they come, finished when all have", alias: true),
    ForeignName(
      "MergeMany", "Combine Publishers.MergeMany", pipesh: ["merge"],
      swift: "AsyncAlgorithms merge(_:_:_:) nested, or a task group",
      "merge(P, Q, …) takes any number of inputs: elements as they come, finished when all have", alias: true),
    ForeignName(
      "Empty", "Combine Empty", pipesh: ["empty"], swift: "an empty AsyncStream, or [].async (AsyncAlgorithms)",
      "empty finishes at once", alias: true),
    ForeignName(
      "Fail", "Combine Fail", pipesh: ["fail"], swift: "AsyncThrowingStream { $0.finish(throwing: error) }",
      "fail \"MSG\" fails at once with MSG", alias: true),
    ForeignName(
      "maxPublishers", "Combine flatMap(maxPublishers:)", pipesh: ["flatMap"], swift: "a task group",
      "flatMap { … } concurrency: N is flatMap(maxPublishers: .max(N))", alias: true),
  ]
}
