import Locking
import PipeRuntime
import PipeSema
import PipeSyntax

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Shell {
  func execute(_ command: CheckedCommand, range: SourceRange, source: SourceFile) async {
    switch command {
    case .jobs:
      listJobs()
    case .cancel(let ids):
      for id in ids {
        guard let job = jobs.job(id) else {
          commandFailed("cancel: no job \(id)")
          continue
        }
        job.cancel()
        await waitFor { await job.wait() }
      }
    case .cancelAll:
      let running = jobs.running
      for job in running { job.cancel() }
      await waitForAll(running)
      if interactive { console.line("cancelled \(running.count) job\(running.count == 1 ? "" : "s")") }
    case .wait(let ids):
      var waited: [Job] = []
      for id in ids {
        guard let job = jobs.job(id) else {
          commandFailed("wait: no job \(id)")
          continue
        }
        waited.append(job)
      }
      await waitForAll(ids.isEmpty ? jobs.running : waited)
    case .inspect(let id):
      guard let job = jobs.job(id) else {
        commandFailed("inspect: no job \(id)")
        return
      }
      for line in Inspector.lines(job) { console.line(line) }
    case .trace(let pipeline):
      let observer = TraceObserver(console: console, labels: Inspector.labels(pipeline))
      await runForeground(jobs.start(pipeline, background: false, clock: nextClock, observer: observer))
    case .draw(let pipeline):
      await draw(pipeline)
    case .check(let pipeline):
      let rows = pipeline.stages.map { [$0.text, $0.outputType.description] }
      for line in Format.table(rows, gap: 3) { console.line(line) }
    case .send(let name, let values):
      await send(values, to: name)
    case .close(let name):
      let session = self.session
      await changeWorld { session.close(name) }
    case .help(let topic):
      await help(topic)
    case .ops:
      listOperators()
    case .names:
      listNames()
    case .load(let path):
      await load(path)
    case .clock(let isVirtual):
      virtualTime = isVirtual
    case .quit:
      requestQuit()
    case .stats:
      let running = jobs.running.count
      console.line(
        "jobs: \(running) running · tasks: \(jobs.liveTasks.load(ordering: .relaxed)) live · nodes: \(jobs.liveNodes) live"
      )
    case .history:
      let lines = historyProvider?() ?? []
      for (index, line) in lines.enumerated() { console.line(Format.padLeft(String(index + 1), 5) + "  " + line) }
    }
  }

  /// `send NAME V…`: each value waits until a consumer takes it. When none does, the shell says so
  /// once (on a virtual clock: when nothing else can run; on the real clock: after a second), and
  /// Ctrl-C stops the sending.
  func send(_ values: [Value], to name: String) async {
    let channel = session.channel(name)
    let taken = Locked(0)
    let console = self.console
    let waiting: @Sendable () -> Void = {
      let next = taken.withLock { $0 }
      guard next < values.count else { return }
      console.line(
        "send: waiting for a consumer of '\(name)' to take \(values[next].printed) (Ctrl-C stops)", to: .error)
    }
    let realClock = !virtualTime
    // On the virtual clock the consumers are virtual jobs: the send is made on that clock too.
    if !realClock { _ = nextClock }
    await waitFor(onStall: waiting) {
      let notice = realClock ? Task { if (try? await Task.sleep(for: .seconds(1))) != nil { waiting() } } : nil
      defer { notice?.cancel() }
      for value in values {
        await channel.send(value)
        if Task.isCancelled { return }
        taken.withLock { $0 += 1 }
      }
    }
    let sent = taken.withLock { $0 }
    if sent < values.count {
      // Interactively after the terminal's own "^C".
      let lead = interactive ? "\n" : ""
      console.line(lead + "send: stopped, no consumer took \(values[sent].printed)", to: .error)
    }
  }

  func listJobs() {
    var rows = [["ID", "STATE", "TIME", "OUT", "PIPELINE"]]
    for job in jobs.all {
      rows.append([String(job.id), job.state.rawValue, job.elapsed.secondsText, String(job.output), job.text])
    }
    for line in Format.table(rows) { console.line(line) }
  }

  func listOperators() {
    let groups: [(String, OperatorRole)] = [
      ("sources", .source), ("combinators", .combinator), ("operators", .operator), ("sinks", .sink),
    ]
    for (title, role) in groups {
      console.line("\(title):")
      let rows = Operators.signatures.all.filter { $0.role == role }.map { ["  " + $0.usage, $0.summary] }
      for line in Format.table(rows) { console.line(line) }
    }
  }

  func listNames() {
    let bindings = environment.bindings.values.sorted { $0.name < $1.name }
    if bindings.isEmpty {
      console.line("no let bindings")
      return
    }
    let rows = bindings.map { binding -> [String] in
      let kind = binding.isSource ? "source of \(binding.elementType?.description ?? "?")" : "operators"
      return [binding.name, "= " + binding.source.text(of: binding.pipeline.range), "(\(kind))"]
    }
    for line in Format.table(rows) { console.line(line) }
  }

  func load(_ path: String) async {
    guard loadDepth < Self.maximumLoadDepth else {
      return loadFailed("load: '\(path)' nests loads more than \(Self.maximumLoadDepth) deep (does it load itself?)")
    }
    switch TextFile.read(path) {
    case .failure(let failure):
      loadFailed("load: \(failure)")
    case .success(let text):
      loadDepth += 1
      defer { loadDepth -= 1 }
      let status = await runScriptInline(SourceFile(name: path, text: Self.strippingShebang(text)))
      if status == 2 { loadFailed(nil) }
    }
  }

  /// A `#!` first line is a comment.
  public static func strippingShebang(_ text: String) -> String {
    guard text.hasPrefix("#!") else { return text }
    return "#" + text.dropFirst()
  }

  func requestQuit() { setQuit() }
}
