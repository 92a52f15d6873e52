import PipeSema
import Testing

@testable import PipeRuntime

/// The one task per iterator that pipesh's debounce workaround asks from (`Asker`): a question
/// asked from a task cancelled before the asker's own task is made is asked cancelled too.
@Suite("an asker's task")
struct AskerTests {
  @Test(.timeLimit(.minutes(1)))
  func anUpstreamAskedFromACancelledTaskIsAskedCancelled() async {
    let (stream, continuation) = AsyncStream<Value>.makeStream()
    defer { continuation.finish() }
    let upstream = StoppableUpstream(base: ValueSequence(stream), stop: UpstreamStop())
    let asked = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      var iterator = upstream.makeAsyncIterator()
      // A stream asked from a cancelled task ends (nil); asked uncancelled, it would wait for ever.
      return try? await iterator.next()
    }
    #expect(await asked.value == nil)
  }
}
