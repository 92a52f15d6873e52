import PipeSema
import Testing

@testable import PipeRuntime

/// The one task per iterator that pipesh's debounce workaround asks from (`Asker`): a question
/// asked from a task cancelled before the asker's own task is made is asked cancelled too.
///
/// No time limit: in the whole suite, tests that wait on processes hold the cooperative threads
/// for minutes, and a one-minute limit fired there on a question that takes milliseconds alone. A
/// real hang is caught by `Scripts/test`'s limit on the whole pass.
@Suite("an asker's task")
struct AskerTests {
  @Test func anUpstreamAskedFromACancelledTaskIsAskedCancelled() async {
    // Many times: the cancel and the asker's task being made race each other.
    for _ in 0..<500 {
      let (stream, continuation) = AsyncStream<Value>.makeStream()
      let upstream = StoppableUpstream(base: ValueSequence(stream), stop: UpstreamStop())
      let asked = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        var iterator = upstream.makeAsyncIterator()
        // A stream asked from a cancelled task ends (nil); asked uncancelled, it would wait for ever.
        return try? await iterator.next()
      }
      #expect(await asked.value == nil)
      continuation.finish()
    }
  }
}
