import OpenCombine
import Testing

/// What `help values` and Docs/combine.md say of Combine's `.values`, on OpenCombine 0.14.0: its
/// `AsyncPublisher` asks for one value per `next()`, so a `PassthroughSubject`'s drops what is sent
/// while nobody asks, and a `CurrentValueSubject`'s gives the newest value when asked. Each step
/// happens in one order (a send before the ask), with no waiting.
@Suite("Combine's .values, on OpenCombine 0.14.0")
struct ValuesTests {
  @Test func aPassthroughSubjectsValuesDropWhatIsSentBeforeTheLoopAsks() async {
    let subject = PassthroughSubject<Int, Never>()
    var iterator = subject.values.makeAsyncIterator()
    subject.send(1)  // subscribed, but nothing asked: no demand
    subject.send(2)
    subject.send(completion: .finished)
    #expect(await iterator.next() == nil, "1 and 2 were dropped")
  }

  @Test func aCurrentValueSubjectsValuesGiveTheNewestWhenTheLoopAsks() async {
    let subject = CurrentValueSubject<Int, Never>(0)
    var iterator = subject.values.makeAsyncIterator()
    subject.send(1)  // nothing asked: kept as the current value only
    subject.send(2)
    #expect(await iterator.next() == 2, "the newest, not 0 or 1")
    subject.send(completion: .finished)
    #expect(await iterator.next() == nil)
  }
}
