/// Every shell command, in the order `help` lists them. Its raw value is the name a statement
/// starts with; its grammar (form, usage, summary) is `signature`. What a command does is the
/// shell's (`Commands.entry(_:)` in `PipeShell`), and the Swift export says what it becomes; both
/// switch over this enum with no `default:`, so a new case is not done until each says.
public enum CommandKind: String, CaseIterable, Sendable {
  case jobs, lint, top, cancel, wait, inspect, tasks, trace, replay, draw, explore, why, compare, expect, check, send,
    close,
    fail,
    sleep, step, run
  case validate
  case swift
  case help, ops, names, load, clock, stats, history, quit, exit

  /// The name a statement writes.
  public var name: String { rawValue }

  /// What follows the command's name, its usage and its summary: what the parser, the checker,
  /// `help`, completion and Docs/reference.md's table read.
  public var signature: CommandSignature {
    switch self {
    case .jobs:
      CommandSignature(
        self, .bare,
        summary:
          "lists the jobs: ID STATE TIME OUT PIPELINE (a long pipeline shortened with … to fit the screen); a job with a warning is marked ! and its warning follows the table (lint explains them)"
      )
    case .lint:
      CommandSignature(
        self, .bare,
        summary:
          "lists the warnings about running jobs, each with why and what to do: a background drain of an endless source (its output goes nowhere), a background job that has produced nothing for a minute (a leak?), a buffer dropping elements, a debounce whose input never pauses, an into waiting 5s or more for a consumer, a share holding more than 10 elements for its slowest reader, a stream read by several consumers at once (they split its elements); and, for a job cancelled while a work cooperative: false waited, that it ignored the cancel and handed an element on (said also when the job ends)"
      )
    case .top:
      CommandSignature(
        self, .bare,
        summary:
          "shows the running jobs live, full screen, a second a frame (on the virtual clock, a virtual second): a row per job and, expanded, per node (state, what it waits on, IN, OUT, elements a second over the last 5s, time since its last element), with the warnings of lint; keys: q or Ctrl-C quit, up/down select, enter expands, e/c expand/collapse all, 1-5 sort by ID, STATE, TIME, OUT, RATE (again: reverse), / filter; not on a terminal, one snapshot"
      )
    case .cancel:
      CommandSignature(
        self, .jobs(all: true, missing: "name the jobs to cancel"), usage: "cancel N… | cancel all",
        summary: "cancels jobs")
    case .wait:
      CommandSignature(
        self, .jobs(all: false, missing: nil), usage: "wait [N…]",
        summary: "waits for jobs (all running ones when no N); Ctrl-C stops the waiting")
    case .inspect:
      CommandSignature(
        self, .job, usage: "inspect N",
        summary: "draws the job's node tree with states and counts, and under each node the tasks it started")
    case .tasks:
      CommandSignature(
        self, .jobs(all: false, missing: nil), usage: "tasks [N…] [all] | tasks \"F.trace\"",
        summary:
          "the task tree of jobs (all running ones when no N): a row per task that ran for the job, its own and every task its operators started (swift-async-algorithms' merge, zip, debounce, buffer…; spawn's, pipesh's flatMap concurrency:, flatMapLatest and timeout), as the Swift runtime made, cancelled and ended them: id, kind (job, group child of its parent, unstructured), the task that made it, the node whose code made it, when it started, when it was cancelled and by what, when it ended; the tasks of pipesh's workarounds of swift-async-algorithms' bugs and its stops of an operator's input are folded into one counted line, which tasks N all shows row by row; tasks \"F.trace\" reads a probe's saved trace instead (recorder.write(toFile:) or pipesh attach --save wrote it; pipesh's own traces name no task on their asks): a row per task that asked a lane (numbered as the trace numbers them), the lanes it asked, those it waits on at the trace's end (its ask not answered), and its last ask's time"
      )
    case .trace:
      CommandSignature(
        self, .pipeline(partial: false, options: [CommandOptions.fileLabel, CommandOptions.orderLabel]),
        usage: "trace PIPELINE [to: \"F.svg\"|\"F.html\"|\"F.trace\"] [order: TOKEN]",
        summary:
          "runs a pipeline, printing every lifecycle event of every node, and each task it ran starting, being cancelled (by what) and ending, under the node whose code started it; to: a .svg or .html file draws the nodes' lifetimes as a chart (a bar per node from start to end, by how it ended, with the reason and a tick per element) in an SVG picture or a web page instead; to: a .trace file prints the trace and saves it, one JSON object a line, for replay; order: TOKEN runs it instead on a virtual clock of its own in the order explore named with TOKEN, as draw P order: TOKEN does (a token made for another pipeline, or whose choices do not fit its run, is refused before a line is printed; no to: with it)",
        files: CommandSignature.pictureFiles + [".trace"])
    case .replay:
      CommandSignature(
        self, .recording, usage: "replay \"F.trace\" [speed: X | step: true]",
        summary:
          "shows a trace saved by trace PIPELINE to: \"F.trace\" again, as trace printed it; speed: X plays it back in time, X times as fast (Ctrl-C stops it); step: true shows its first instant, then each step the next (run shows the rest)"
      )
    case .draw:
      CommandSignature(
        self,
        .pipeline(
          partial: false,
          options: [
            "tick", "until", CommandOptions.demandLabel, CommandOptions.fileLabel, CommandOptions.dialectLabel,
            CommandOptions.orderLabel,
          ],
          savedTrace: true),
        usage:
          "draw PIPELINE|\"F.trace\" [tick: D] [until: D] [demand: true] [to: \"F.svg\"|\"F.html\"] [dialect: aa|rxjs] [order: TOKEN]",
        summary:
          "runs a pipeline on the virtual clock and draws one marble line per stage under a time ruler: a column per tick (tick:, else the first marble's, else 1s; finer when events less than a tick apart would share a column), until 60 ticks (until:); lines wider than the screen are cut at its edge; demand: true adds under each lane where its consumer's request (next()) was outstanding (- asked, . answered in that column, , not asked), an into's waits for a consumer (> waiting), and what a buffer or delay held (a digit a column, x where its policy dropped) or a share held for its slowest reader; to: writes an SVG picture (exact times, each node's lifetime under its lane; with demand: true a band where a request was outstanding) or a web page instead; a saved trace's file in place of the pipeline draws its events without running anything; dialect: rxjs writes the lanes in RxJS's marble syntax instead (a frame per column, frame 0 the start, (ab) a group whose characters take the frames after it, # failed, ! cancelled, a value that is not one plain character as a letter listed under the lanes, a = 10), which marble \"…\" dialect: rxjs tick: D reads back; order: TOKEN runs it in the order explore named with TOKEN (a token made for another pipeline, or whose choices do not fit its run, is refused); without it, a run that passed a choice (two or more of the pipeline's tasks runnable first at one instant) says in a line under the drawing that it is one order of several, as explore shows"
      )
    case .explore:
      CommandSignature(
        self,
        .pipeline(
          partial: false,
          options: [CommandOptions.ordersLabel, CommandOptions.seedLabel, CommandOptions.untilLabel, "tick"]),
        usage: "explore PIPELINE [orders: N] [seed: S] [until: D] [tick: D]",
        summary:
          "runs a pipeline on the virtual clock once per order: at each instant where several tasks of the operators or the pipeline (not pipesh's own bookkeeping) can run, each of them first, depth-first, while there are at most N orders (orders:, default 1000; beyond, it stops at N, says not all, and runs N more at random, each choice drawn from seed: S, 1 unless it says); prints how many orders ran and whether that was all, then each distinct outcome once (the lanes as draw draws them, what the pipeline printed, each node's end and the job's status) with how many orders gave it and the order: TOKEN that draw P order: TOKEN and trace P order: TOKEN run again, and under each outcome after the first where its run parts from the closest earlier outcome's (parts from outcome N at TIME: the first instant a lane differs, and what came next there in each run); until: bounds an endless pipeline as draw's does (60 ticks without it); on a terminal a line counts the orders as they run; Ctrl-C stops it between orders, with what it found"
      )
    case .why:
      CommandSignature(
        self, .job, usage: "why N | why \"F.trace\" FROM TO",
        summary:
          "for job N, which has ended and was watched (run by draw or trace, or stepped): every element that went into a node and did not come out of it, and what became of it, at which node and when: filtered, dropped by throttle (and which element won the window), replaced in debounce, dropped by a buffer's policy, removed as a duplicate, gathered into a chunk, combined into a zip's or combineLatest's tuple (or read by zip and never paired), turned into a flatMap's pipeline, in flight when the job was cancelled or failed, never asked for; per node, in = out + each kind of loss; why \"F.trace\" FROM TO reads a probe's saved trace instead (recorder.write(toFile:) or pipesh attach --save wrote it): the elements of lane FROM that did not come out at lane TO, a probe after it, followed by what they say (a probe knows no operator between two probes: equal elements are marked ?, and where TO gives elements FROM never said, as after a map, nothing is claimed)"
      )
    case .compare:
      CommandSignature(
        self, .pipeline(partial: false, options: ["tick", "until", CommandOptions.fileLabel]),
        usage: "compare PIPELINE [tick: D] [until: D] [to: \"F.svg\"|\"F.html\"]",
        summary:
          "draws a pipeline's stages (as draw does) beside their Combine counterparts (OpenCombine, virtual scheduler); ≠ marks rows that differ, ≈ rows that differ only in the order of events at one instant (a tie); to: writes the two lanes of each stage on one time axis as an SVG picture or a web page instead"
      )
    case .expect:
      CommandSignature(
        self,
        .expectation(options: [
          "tick", CommandOptions.untilLabel, CommandOptions.dialectLabel, CommandOptions.inLabel,
          CommandOptions.ordersLabel,
        ]),
        usage:
          "expect PIPELINE == \"DIAGRAM\" | prints V… | fails \"MESSAGE\" | ends \"NODE\" \"REASON\" [in: every order [orders: N]] [tick: D] [until: D] [dialect: aa|rxjs]",
        summary:
          "runs a pipeline on a virtual clock of its own and checks it: == its output drawn a column a tick (tick:, else the first marble's, else 1s; 1ms frames with dialect: rxjs, RxJS's notation, frame 0 at the start) is DIAGRAM, run until DIAGRAM's ; (where it is cancelled, before that step's events), until:, or just before twice DIAGRAM's length (a DIAGRAM with no end claims nothing more until then; an empty one, or one cancelled at its first step, needs until:); prints: it passes on these values and finishes; fails: it fails with MESSAGE; ends: its node labelled NODE (as draw labels it) ends finished, failed, cancelled or cancelled for REASON (downstream finished, job cancelled…); silent when it holds (pipesh -v says it), otherwise expected and actual drawn under one ruler with the first difference marked, and the script's status is 1; in: every order: it must hold in every order explore would run (depth-first, at most orders: N, 1000 unless it says), a failure drawn for the first order that breaks it with its order: TOKEN for draw, and more orders than N a failure too, saying how many held"
      )
    case .check:
      CommandSignature(
        self, .pipeline(partial: true), usage: "check PIPELINE",
        summary: "type-checks a pipeline and shows the element type after every stage")
    case .send:
      CommandSignature(
        self, .values, usage: "send NAME V…",
        summary: "pushes values into channel NAME (waits for a consumer), stream NAME (never waits) or subject NAME",
        backgroundNote: "a pipeline sends in the background: from 1 2 | into NAME & (top and lint show it waiting)")
    case .close:
      CommandSignature(
        self, .word(choices: nil, missing: "name one channel"), usage: "close NAME",
        summary: "finishes channel, stream or subject NAME", namesKnownChannel: true)
    case .fail:
      CommandSignature(
        self, .failure, usage: "fail NAME \"MESSAGE\"",
        summary: "ends channel NAME with an error: every consumer's job fails with MESSAGE", namesKnownChannel: true)
    case .sleep:
      CommandSignature(
        self, .duration, usage: "sleep INTERVAL",
        summary: "waits INTERVAL on the session's clock while background jobs go on; Ctrl-C stops it")
    case .step:
      CommandSignature(
        self, .optionalJob(label: CommandOptions.untilLabel), usage: "step [N] [until: D]",
        summary:
          "on the virtual clock: holds the clock, runs it to the next instant at which something happens for job N (any job without N) and prints what happened there, as trace prints it; until: D runs it to the time D (as trace stamps it), printing everything on the way; then the clock stays held (between statements, and at the prompt while you type) until run; jobs to step are started with & after a step (a script that steps watches all of its jobs from the start)"
      )
    case .run:
      CommandSignature(
        self, .bare,
        summary:
          "lets go of the clock step holds: at the prompt it runs again while you type, and a script's end runs its jobs on as usual"
      )
    case .validate:
      CommandSignature(
        self, .validation, usage: "validate { \"IN\"… OPERATION \"OUT\" }",
        summary:
          "swift-async-algorithms' validation form, pasted from its tests and issues as written: input diagrams, the operation in AA's Swift over $0.inputs[N] and $0.clock (or diagram in … diagram.inputs[N]), the expected output, a statement a line or ; between; the operators pipesh has, in AA's spelling (_throttle(for:clock:latest:), debounce(for:clock:), buffer(policy:), chunks(ofCount:) and chunks(ofCount:or:) with a timer or a sequence, chunked(by:) with a timer (.repeating(every:clock:)), a sequence ($0.inputs[N]) or a closure of pipesh's, removeDuplicates(), compacted(), adjacentPairs(), prefix, dropFirst, map, filter and compactMap with a closure of pipesh's or concatCharacters, merge, zip, combineLatest and chain, AsyncTimerSequence(interval:clock:)), any other refused naming what pipesh has; AA's notation as AA reads it ('foo''bar' two values, , moves the consumer's next request a step later, ; cancels it); run on the virtual clock a step a second, AA's test consumer asking at the output's steps; silent when the output matches (pipesh -v says it), else the first difference at its step (AA's own messages count ticks from 0: its at tick 6 is step 7), the lanes drawn, and the script's status is 1"
      )
    case .swift:
      CommandSignature(
        self, .pipeline(partial: false, options: [CommandOptions.checkedLabel, CommandOptions.plainLabel]),
        usage: "swift PIPELINE [checked: true|plain: true]",
        summary:
          "prints the Swift code (over swift-async-algorithms) that does what a pipeline does, to paste into an async function, with only the helpers it uses: Swift's own Int arithmetic, and arguments worked out from $0 in a flatMap body checked as pipesh checks them (take $0 fails the job on -1); checked: true keeps pipesh's checked arithmetic too (overflow fails the job); plain: true leaves out every check of pipesh's, for pasting into an app (as pipesh --emit-swift --plain FILE does for a whole program)"
      )
    case .help:
      CommandSignature(self, .topic, usage: "help [NAME]", summary: "documentation of a command or operator")
    case .ops:
      CommandSignature(self, .bare, summary: "lists the operators")
    case .names:
      CommandSignature(self, .bare, summary: "lists the let bindings")
    case .load:
      CommandSignature(self, .file, usage: "load \"FILE\"", summary: "runs a script file inside this shell")
    case .clock:
      CommandSignature(
        self,
        .word(
          choices: ["real", "virtual"], missing: "say real or virtual, or nothing to see the clock", optional: true),
        usage: "clock [real | virtual]", summary: "shows the clock, or chooses it for pipelines started from now on")
    case .stats:
      CommandSignature(
        self, .bare,
        summary:
          "counts live jobs, tasks (every task of every job, its own and its operators', as the Swift runtime reported them; those that outlive their job are named) and nodes"
      )
    case .history:
      CommandSignature(self, .bare, summary: "lists the line history")
    case .quit, .exit:
      CommandSignature(self, .bare, summary: "leaves; running jobs are cancelled")
    }
  }

  /// What the checker checks commands against, in the order `help` lists them.
  public static let signatures = CommandTable(allCases.map(\.signature), topics: HelpTopicKind.allCases.map(\.name))
}

/// What `help` explains beside the commands and operators (`help let`), in the order it lists
/// them. A topic may share a command's name (`help jobs` shows both). Its text and examples are
/// the shell's (`Commands.topic(_:)` in `PipeShell`), found by an exhaustive switch.
public enum HelpTopicKind: String, CaseIterable, Sendable {
  case `let`, combine, closures, jobs, time, channels, marbles, serve, attach

  /// The word after `help`.
  public var name: String { rawValue }
}
