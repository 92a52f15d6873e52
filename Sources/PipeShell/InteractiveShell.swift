import PipeRuntime
import PipeSyntax

/// The interactive loop: prompt, read a (possibly continued) line, run it.
public final class InteractiveShell {
  let shell: Shell

  public init(shell: Shell) {
    self.shell = shell
  }

  public func run() async -> Int32 {
    let signal = InterruptSignal { [shell] in shell.interrupt() }
    defer { withExtendedLifetime(signal) {} }
    while !shell.quitRequested {
      shell.console.raw("pipesh[\(shell.jobs.running.count)]> ")
      guard var text = await shell.whileReading({ readLine() }) else { break }
      while Lexer.needsContinuation(text) {
        shell.console.raw("...> ")
        guard let more = await shell.whileReading({ readLine() }) else { break }
        text += "\n" + more
      }
      shell.clearInterrupt()
      await shell.runLine(text)
    }
    let running = shell.jobs.cancelAll()
    await shell.releasingClock {
      for job in shell.jobs.all { await job.wait() }
    }
    shell.console.line("bye: cancelled \(running) running job\(running == 1 ? "" : "s")")
    return 0
  }
}
