import Foundation
import Testing

/// Drives the real `pipesh` in a pseudo-terminal, as a person would type.
/// Waits are for output to appear (with a generous deadline as a failure bound), never fixed
/// sleeps. Carriage returns are dropped from what the terminal shows before matching.
@Suite("interactive shell in a pseudo-terminal")
struct InteractiveTests {
  @Test func typingAPipelineShowsItsOutput() throws {
    let terminal = try Terminal()
    try terminal.expect("pipesh[0]> ")
    terminal.type("from 1 2 3 | map { $0 * 10 }\r")
    try terminal.expect("10\n20\n30\n")
    try terminal.expect("pipesh[0]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  /// A foreground job that ignores its cancellation (`work … cooperative: false`, 1000 s): the first
  /// Ctrl-C says what still runs and why, the second gives the prompt back, the work going on.
  @Test func twoCtrlCsGiveThePromptBackFromAJobThatIgnoresTheCancel() throws {
    let terminal = try Terminal()
    try terminal.expect("pipesh[0]> ")
    // `ready` comes a second after the work began; a Ctrl-C that still comes before its wait
    // began (a loaded machine) ends the job at once, truly said so: then the line is run again.
    let said = "is cancelled but still runs: work 1000 cooperative: false ignores cancellation"
    var attempts = 0
    repeat {
      attempts += 1
      terminal.type(
        "merge(from \"x\" | work 1000 cooperative: false, timer 1 | take 1 | map { \"ready\" }) | print\r")
      try terminal.expect("ready\n")
      terminal.type("\u{3}")
      try terminal.expectLine("the first Ctrl-C's answer") { $0.contains(said) || $0.contains("] cancelled after") }
    } while !terminal.shown.contains(said) && attempts < 10
    #expect(terminal.shown.contains(said + " and ends only when its wait does; Ctrl-C again gives the prompt back"))
    terminal.type("\u{3}")
    // The job's work still waits: the job has not ended (the prompt counts it).
    try terminal.expect("pipesh[1]> ")
    // Leaving waits for the work, and says so, until Ctrl-C.
    terminal.type("\u{4}")
    try terminal.expect("ends only when its wait does; Ctrl-C quits now")
    terminal.type("\u{3}")
    try terminal.expect("bye: cancelled 1 running job\n")
    try terminal.expectExit(0)
  }

  @Test func tabCompletesOperatorsAfterABarAndListsSeveral() throws {
    // On the virtual clock: the timer's line says +1.000s however loaded the machine is.
    let terminal = try Terminal(arguments: ["--virtual-time"])
    try terminal.expect("pipesh[0]> ")
    // One match: the word is completed (and the completed line runs).
    terminal.type("from 1 2 | removeDup\t| col\t\r")
    try terminal.expect("[1, 2]\n")
    try terminal.expect("]> ")
    // Several: they are listed, as bash does, and the line stays.
    terminal.type("range 1 3 | ta\t")
    try terminal.expect("take       takeWhile  tap\n")
    terminal.type("ke 2\r")
    try terminal.expect("1\n2\n")
    try terminal.expect("]> ")
    // Sources at the start, labels after an operator's name.
    terminal.type("comb\ttimer 1 | take 1, timer 1 | take 1) | print ti\ttrue\r")
    try terminal.expect("+1.000s (0, 0)\n")
    try terminal.expect("]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  /// A long `expect … in: every order` counts its orders on the terminal as explore does, erases
  /// the count before its message, and Ctrl-C stops it: not checked in every order, which it says.
  @Test func aLongEveryOrderExpectationShowsItsProgressUntilCtrlC() throws {
    let terminal = try Terminal(arguments: ["--virtual-time"])
    try terminal.expect("pipesh[0]> ")
    let race = (["a", "b", "c"].map { "timer 0.01 | take 5 | map { \"\($0)\" }" }).joined(separator: ", ")
    terminal.type("expect merge(\(race)) | count prints 15 in: every order orders: 100000\r")
    try terminal.expect("\u{1B}[Kexpect: ")
    try terminal.expect(" of at most 100000 orders (Ctrl-C stops)")
    try terminal.interrupt(until: "not checked in every order: interrupted; it held in the ")
    try terminal.expect("]> ")
    terminal.type("\u{4}")
    // An interactive session's status is that of its end (Ctrl-D), not of its failed statements.
    try terminal.expectExit(0)
  }

  /// A long exploration shows its count on the terminal as it goes, on one line it rewrites, and
  /// erases it before the results; Ctrl-C stops it with what it found, and the prompt comes back.
  @Test func aLongExplorationShowsItsProgressUntilCtrlC() throws {
    let terminal = try Terminal(arguments: ["--virtual-time"])
    try terminal.expect("pipesh[0]> ")
    let race = (["a", "b", "c"].map { "timer 0.01 | take 5 | map { \"\($0)\" }" }).joined(separator: ", ")
    terminal.type("explore merge(\(race)) | reduce \"\" { $0 + $1 } orders: 100000\r")
    // (The terminal's carriage returns are dropped before matching: the erase code is what shows.)
    try terminal.expect("\u{1B}[Kexplore: ")
    try terminal.expect(" of at most 100000 orders, ")
    try terminal.interrupt(until: "(not all: interrupted): ")
    // The count's line was erased before the result was written on it (after the terminal's ^C).
    let shown = terminal.shown
    let result = shown.range(of: " orders (not all: interrupted)")
    let before = result.map { shown[..<$0.lowerBound].reversed().drop { $0.isNumber } } ?? []
    #expect(String(before.prefix(3).reversed()) == "\u{1B}[K", "\(shown.debugDescription)")
    try terminal.expect("]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  /// At the prompt a channel is made before a later line fails it: it is an AsyncChannel, which
  /// cannot fail, and `fail` says so; the session goes on.
  @Test func failingAChannelMadeBeforeIsAnError() throws {
    let terminal = try Terminal(arguments: ["--virtual-time"])
    try terminal.expect("pipesh[0]> ")
    terminal.type("channel c of: Int | print &\r")
    try terminal.expect("]> ")
    terminal.type("fail c \"offline\"\r")
    try terminal.expect("error: fail: channel 'c' is an AsyncChannel, which cannot fail")
    try terminal.expect("]> ")
    terminal.type("channel d of: Int | print &\r")
    try terminal.expect("]> ")
    terminal.type("close c\r")
    try terminal.expect("]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  @Test func historyIsRecalledInASecondRun() throws {
    let history = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-history-\(UUID())").path
    defer { try? FileManager.default.removeItem(atPath: history) }
    let first = try Terminal(history: history)
    try first.expect("pipesh[0]> ")
    first.type("from \"remembered\"\r")
    try first.expect("remembered\n")
    try first.expect("]> ")
    first.type("\u{4}")
    try first.expectExit(0)

    let second = try Terminal(history: history)
    try second.expect("pipesh[0]> ")
    second.type("\u{1B}[A\r")  // Up, Enter
    try second.expect("remembered\n")
    try second.expect("]> ")
    second.type("\u{4}")
    try second.expectExit(0)
  }

  @Test func ctrlCCancelsTheForegroundJob() throws {
    let terminal = try Terminal()
    try terminal.expect("pipesh[0]> ")
    terminal.type("timer 0.2 | print\r")
    try terminal.expect("0\n")
    terminal.type("\u{3}")
    try terminal.expect("[1] cancelled after")
    try terminal.expect("pipesh[0]> ")
    terminal.type("jobs\r")
    try terminal.expect("cancelled")
    try terminal.expect("timer 0.2 | print")
    // A Ctrl-C typed before libedit has the terminal again would be the terminal driver's: wait
    // for the prompt, which libedit draws after taking the terminal.
    try terminal.expect("]> ")
    terminal.type("half a line\u{3}")
    try terminal.expect("^C")
    try terminal.expect("]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  @Test func backgroundOutputKeepsTheHalfTypedLine() throws {
    let terminal = try Terminal()
    try terminal.expect("pipesh[0]> ")
    terminal.type("timer 0.3 | take 2 | print label: \"bg\" &\r")
    try terminal.expect("[1] timer 0.3")
    terminal.type("from \"half")
    try terminal.expect("[1] bg: 1")
    try terminal.expect("[1] finished after")
    // The prompt and the partly typed line are drawn again below the notice.
    try terminal.expect("pipesh[0]> from \"half")
    terminal.type(" typed\"\r")
    try terminal.expect("half typed\n")
    try terminal.expect("]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  /// Step mode at the prompt: `step` holds the virtual clock, so a job started after it waits while
  /// a line is typed; each step shows one instant's trace lines and the job's output; `run` lets
  /// the clock go, and the job ends while the next line is read.
  @Test func aJobIsSteppedAnInstantAtATime() throws {
    let terminal = try Terminal(arguments: ["--virtual-time"])
    try terminal.expect("pipesh[0]> ")
    terminal.type("step\r")
    try terminal.expect("step: no job runs; the virtual clock is held at +0.000s")
    try terminal.expect("]> ")
    terminal.type("timer 1 | take 2 | print &\r")
    try terminal.expect("pipesh[1]> ")
    terminal.type("step 1\r")
    try terminal.expect("+0.000s [1] timer 1  start\n")
    try terminal.expect("]> ")
    terminal.type("step 1\r")
    try terminal.expect("+1.000s [1] print    → 0\n[1] 0\n")
    try terminal.expect("]> ")
    // The clock stood still while these lines were typed: the job is where the step left it.
    terminal.type("jobs\r")
    try terminal.expect("1   running  1.0s  1    timer 1 | take 2 | print\n")
    try terminal.expect("]> ")
    terminal.type("step 2\r")
    try terminal.expect("error: step: no job 2\nstep 2\n     ^\n")
    try terminal.expect("]> ")
    terminal.type("run\r")
    try terminal.expect("[1] 1\n")
    try terminal.expect("[1] finished after 2.0s (2 elements)")
    // The prompt after `run` may have been drawn (and redrawn under the notice) before the job
    // ended, as the clock runs while the line is read: the one after the next command counts none.
    terminal.type("stats\r")
    try terminal.expect("jobs: 0 running")
    try terminal.expect("pipesh[0]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  @Test func ctrlDLeavesAndCancelsRunningJobs() throws {
    let terminal = try Terminal()
    try terminal.expect("pipesh[0]> ")
    terminal.type("timer 5 &\r")
    try terminal.expect("pipesh[1]> ")
    terminal.type("\u{4}")
    try terminal.expect("bye: cancelled 1 running job")
    try terminal.expectExit(0)
  }

  @Test func ctrlCInterruptsAScriptWithStatus130() throws {
    let terminal = try Terminal(arguments: ["-c", "timer 0.2 | print"])
    try terminal.expect("0\n")
    terminal.type("\u{3}")
    try terminal.expectExit(130)
  }

  /// A script file in a temporary folder.
  func script(_ text: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-\(UUID()).pipe")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  @Test("Ctrl-C stops a script waiting for its jobs", arguments: [[], ["--virtual-time"]])
  func ctrlCStopsAScriptWaitingForJobs(_ options: [String]) throws {
    let path = try script("from \"waiting\" | print\ntimer 1 | drain &\nnever | print &\nwait\n")
    let terminal = try Terminal(arguments: options + [path])
    try terminal.expect("waiting\n")
    terminal.type("\u{3}")
    try terminal.expectExit(130)
  }

  @Test("Ctrl-C stops a sleep", arguments: [[], ["--virtual-time"]])
  func ctrlCStopsASleep(_ options: [String]) throws {
    let path = try script("from \"sleeping\" | print\ntimer 1 | drain &\nsleep 100000\nfrom \"not reached\" | print\n")
    let terminal = try Terminal(arguments: options + [path])
    try terminal.expect("sleeping\n")
    terminal.type("\u{3}")
    try terminal.expectExit(130)
  }

  @Test func ctrlCStopsAScriptWhoseSendNoConsumerTakes() throws {
    let path = try script("channel c of: Int | take 1 | print &\nsend c 1 2\nwait\n")
    let terminal = try Terminal(arguments: [path])
    try terminal.expect("send: waiting for a consumer of 'c' to take 2 (Ctrl-C stops)\n")
    terminal.type("\u{3}")
    try terminal.expect("send: stopped, no consumer took 2\n")
    try terminal.expectExit(130)
  }

  /// `help fail`'s example, typed line by line at the prompt, does what it shows: a channel declared
  /// `throws` is an AsyncThrowingChannel from its first use, so `fail` can end it later.
  @Test func failAChannelDeclaredThrowsAtThePrompt() throws {
    let terminal = try Terminal(arguments: [])
    try terminal.expect("pipesh[0]> ")
    terminal.type("channel user of: String throws | print &\r")
    try terminal.expect("pipesh[1]> ")
    terminal.type("send user \"Phil\"\r")
    try terminal.expect("[1] Phil")
    terminal.type("fail user \"offline\"\r")
    try terminal.expect("[1] failed after")
    try terminal.expect("offline")
    terminal.type("channel plain of: Int | print &\r")
    try terminal.expect("pipesh[1]> ")
    terminal.type("fail plain \"x\"\r")
    try terminal.expect("declare it where it is first used as 'channel plain of: TYPE throws'")
    terminal.type("cancel all\r")
    try terminal.expect("cancelled 1 job")
    try terminal.expect("pipesh[0]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  /// Characters beyond ASCII, typed or pasted, reach the statement whole (libedit in a UTF-8 locale,
  /// whatever the environment's).
  @Test func nonASCIICharactersAreKept() throws {
    let terminal = try Terminal(arguments: [])
    try terminal.expect("pipesh[0]> ")
    terminal.type("from \"añb\" \"日本\" | map { \"\\($0.count) \\($0)\" }\r")
    try terminal.expect("3 añb")
    try terminal.expect("2 日本")
    try terminal.expect("pipesh[0]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  /// A line wider than the terminal wraps; output of a background job printed above it leaves no
  /// stale copy of the line's first row behind. tmux keeps the screen as a user would see it.
  @Test func backgroundOutputRedrawsAWrappedLineWhole() throws {
    let tmux = Tmux()
    let history = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-history-\(UUID())").path
    let command = "env PIPESH_HISTORY=\(history) EDITRC=/dev/null TERM=xterm \(Pipesh.executable.path)"
    try tmux.run(["new-session", "-d", "-s", "pipesh", "-x", "40", "-y", "30", command])
    defer { tmux.killServer() }
    func screen() throws -> String { try tmux.run(["capture-pane", "-p", "-t", "pipesh"]) }
    func waitFor(_ text: String) throws -> String {
      let deadline = Date().addingTimeInterval(60)
      while Date() < deadline {
        let shown = try screen()
        if shown.contains(text) { return shown }
        usleep(50_000)
      }
      throw Terminal.Timeout(expected: text, output: try screen())
    }
    // (tmux shows a row without its trailing spaces.)
    _ = try waitFor("pipesh[0]>")
    // The job prints a line every 0.5 s from its start, so output may come while libedit still
    // draws the burst of keys typed below (a fresh clone's run once left a stale row so, before
    // the editor let lines be printed only between two keys): the line must show whole either way.
    try tmux.run(["send-keys", "-t", "pipesh", "timer 0.5 | take 4 | print label: \"bg\" &", "Enter"])
    _ = try waitFor("[1] timer")
    try tmux.run(["send-keys", "-t", "pipesh", "-l", "from \"a line long enough to wrap over two rows"])
    _ = try waitFor("finished after")
    let shown = try waitFor("over two rows")
    // The prompt shows twice: before the first command and before the line being edited.
    #expect(shown.components(separatedBy: "pipesh[0]>").count - 1 == 2, "\(shown)")
    #expect(shown.components(separatedBy: "from \"a line").count - 1 == 1, "\(shown)")
    #expect(shown.contains("[1] bg: 3"), "\(shown)")
  }

  /// A tmux server of the test's own, on a socket nobody else uses, so the test neither finds a
  /// server left by someone else nor leaves one behind.
  struct Tmux {
    let socket = FileManager.default.temporaryDirectory.appendingPathComponent("pipesh-tmux-\(UUID())").path

    /// Runs a tmux command and returns what it printed. It is started with `posix_spawn`, every
    /// descriptor above 2 closed in the child: `new-session` forks tmux's server, which lives on, and any
    /// descriptor it inherited would stay open with it. (Foundation's `Process` learns that its
    /// child ended when a socket it hands the child closes; the server would hold that socket,
    /// and `waitUntilExit` would wait for ever.) Output goes to a file, not a pipe, for the same
    /// reason.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
      let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID())").path
      defer { unlink(output) }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
      // The test's thread may block signals; the child starts with none blocked and every
      // signal's default action, or the shell in the pane would not end when the server stops.
      var attributes = posix_spawnattr_t()
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      var noSignals = sigset_t()
      var allSignals = sigset_t()
      sigemptyset(&noSignals)
      sigfillset(&allSignals)
      posix_spawnattr_setsigmask(&attributes, &noSignals)
      posix_spawnattr_setsigdefault(&attributes, &allSignals)
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
      let argv = (["/usr/bin/tmux", "-S", socket] + arguments).map { strdup($0) } + [nil]
      defer { for argument in argv { free(argument) } }
      var child: pid_t = 0
      let spawned = ClosingPipe.spawning.withLock {
        // (Listed under the lock, so no test opens a descriptor before the child starts.)
        for descriptor in Self.openDescriptors() where descriptor > 2 {
          posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        return posix_spawn(&child, "/usr/bin/tmux", &actions, &attributes, argv, environ)
      }
      guard spawned == 0 else { throw TmuxFailed(arguments: arguments, stderr: "posix_spawn: \(spawned)") }
      var status: Int32 = 0
      while waitpid(child, &status, 0) == -1 && errno == EINTR {}
      let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
      // Exited with status 0: the low 7 bits (the signal) and the status byte are both 0.
      guard status == 0 else { throw TmuxFailed(arguments: arguments, stderr: printed) }
      return printed
    }

    /// The descriptors this process has open.
    static func openDescriptors() -> [Int32] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
      return names.compactMap { Int32($0) }
    }

    /// Ends the server and everything it runs, and removes the socket.
    func killServer() {
      _ = try? run(["kill-server"])
      unlink(socket)
    }
  }

  struct TmuxFailed: Error {
    let arguments: [String]
    let stderr: String
  }

  /// On a terminal: `error:` in red, the caret in green, the prompt's count in colour; none of it
  /// with NO_COLOR or --no-color.
  @Test(arguments: [(true, [String]()), (false, []), (true, ["--no-color"])])
  func colourOnlyOnATerminalThatWantsIt(_ colour: Bool, _ arguments: [String]) throws {
    let terminal = try Terminal(arguments: arguments, colour: colour)
    let coloured = colour && arguments.isEmpty
    let prompt = coloured ? "pipesh[\u{1B}[1;36m0\u{1B}[0m]> " : "pipesh[0]> "
    try terminal.expect(prompt)
    terminal.type("from 1 | mapp\r")
    try terminal.expect(
      coloured ? "\u{1B}[1;31merror:\u{1B}[0m unknown operator 'mapp'" : "error: unknown operator 'mapp'")
    try terminal.expect(coloured ? "\u{1B}[1;32m^~~~\u{1B}[0m" : "^~~~")
    try terminal.expect(prompt)
    terminal.type("timer 1 | take 1 | drain\r")
    try terminal.expect(prompt)
    terminal.type("jobs\r")
    try terminal.expect(coloured ? "\u{1B}[32mfinished\u{1B}[0m" : "finished  ")
    // Ctrl-D is typed at the prompt (typed earlier, the terminal's cooked mode would take it).
    try terminal.expect(prompt)
    terminal.type("\u{4}")
    try terminal.expectExit(0)
    #expect(terminal.shown.contains("\u{1B}[1;31m") == coloured)
    #expect(terminal.shown.contains("\u{1B}[0m") == coloured)
  }

  @Test func jobsCannotReadTheTerminal() throws {
    let terminal = try Terminal()
    try terminal.expect("pipesh[0]> ")
    terminal.type("stdin | print &\r")
    // The job fails at once: its message may come before the next prompt or after it.
    try terminal.expect("standard input is the terminal the shell reads")
    terminal.type("jobs\r")
    try terminal.expect("failed")
    try terminal.expect("pipesh[0]> ")
    terminal.type("from \"a\\\r")
    try terminal.expect("error: unterminated string literal")
    try terminal.expect("pipesh[0]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }

  @Test func helpShowsAnExampleWithItsRealOutput() throws {
    let terminal = try Terminal()
    try terminal.expect("pipesh[0]> ")
    terminal.type("help throttle\r")
    try terminal.expect("throttle INTERVAL [latest: Bool]")
    try terminal.expect("> timer 1 | take 10 | throttle 3")
    try terminal.expect("  0\n  3\n  6\n  9\n")
    try terminal.expect("]> ")
    terminal.type("\u{4}")
    try terminal.expectExit(0)
  }
}
