import Locking
import PipeCombine
import PipeSema
import PipeSession
import PipeSyntax

/// A help topic beside the commands and operators: a few lines and examples whose output `help`
/// shows as it really is (run on the virtual clock).
struct HelpTopic: Sendable {
  let kind: HelpTopicKind
  let usage: String
  let summary: String
  /// Lines of explanation.
  var text: [String] = []
  /// Short scripts, each shown with what it prints.
  var examples: [String] = []

  var name: String { kind.name }
}

extension Commands {
  /// Topics `help` knows beside the commands and operators, in `HelpTopicKind`'s order; a topic
  /// may share a command's name (`help jobs` shows both).
  static let topics = HelpTopicKind.allCases.map(topic)

  /// The topic of `kind`: its usage, summary, text and examples.
  static func topic(_ kind: HelpTopicKind) -> HelpTopic {
    switch kind {
    case .let:
      HelpTopic(
        kind: kind, usage: "let NAME = FRAGMENT", summary: "names a pipeline fragment",
        text: [
          "a fragment is a source with stages (let ticks = timer 1 | take 2) or stages alone (let tens =",
          "map { $0 * 10 }), used by name in later pipelines and lets, where its stages would stand.",
          "each use builds nodes of its own: two jobs reading ticks run two timers. Up to a share, the",
          "fragment is built once and every use reads the same nodes, each seeing every element ('help",
          "share'). A name is the session's from its let on; a later let of the name replaces it.",
        ],
        examples: [
          "let ticks = timer 1 | take 2\nlet tens = map { $0 * 10 }\nticks | tens | print label: \"A\" &\nticks | print label: \"B\"\nwait",
          "let shared = timer 1 | take 2 | share\nshared | print label: \"A\" &\nshared | print label: \"B\"\nwait",
        ])
    case .combine:
      HelpTopic(
        kind: kind, usage: "help combine",
        summary: "Combine's API beside AsyncAlgorithms' and pipesh's, with how they differ and what has no equivalent",
        examples: ["compare from 1 2 3 | take 2"])
    case .closures:
      HelpTopic(
        kind: kind, usage: "{ … }", summary: "what a closure may say: $0, $1, operators, members, functions",
        text: [
          "$0 is the element ($0 and $1: the accumulator and the element in reductions and reduce);",
          "parameters may be named instead: { x in x * 2 }, { acc, x in acc + x }, checked as $0 and $1.",
          "$0.0, $0.1 are a tuple's members (zip, combineLatest, enumerated), $0[i] an array's element.",
          "operators, as in Swift: + - * / % (String and array +), == != < <= > >=, && || !, c ? a : b.",
          "members: .count, .isEmpty (String, array), .joined() and .joined(separator: \",\") ([String]).",
          "functions: str(x) (the text print shows), int(x) (Int from Double; Int? from String),",
          "double(x), abs(x), min(a, b), max(a, b); \"\\($0)\" interpolates inside closures.",
          "Int overflow, division by zero and a bad index fail the job, with the expression.",
          "in the body of flatMap { … } and flatMapLatest { … }, $0 in a stage's arguments is the element.",
        ],
        examples: [
          "from 1 2 3 | map { $0 > 1 ? \"big \\($0)\" : str($0) } | collect",
          "from 1 2 | flatMap { from \"\\($0)!\" \"\\($0 * 10)\" } | collect",
          "zip(from 1 2, from \"a\" \"b\") | map { \"\\($0.1)\\($0.0)\" } | collect",
          "from \"12\" \"x\" | map { int($0) } | collect",
        ])
    case .jobs:
      HelpTopic(
        kind: kind, usage: "jobs, &, cancel, wait", summary: "every pipeline is a job: a task with a tree of nodes",
        text: [
          "a statement runs as a job: one Swift task iterating the sink's input; each stage is a node.",
          "with & it runs in the background and the prompt comes back; its lines are prefixed [N].",
          "cancel N cancels the job's task: every node stops, and 'stats' shows none of it left.",
          "a finishing operator (take, first, zip's shorter side) ends the job the same way, from inside.",
          "inspect N draws the node tree with each node's state, counts and why it ended.",
        ],
        examples: ["timer 1 | drain &\nrange 1 5 | take 2 | drain\njobs\ncancel 1\ninspect 1\nstats"])
    case .time:
      HelpTopic(
        kind: kind, usage: "--virtual-time, clock, sleep, print time:",
        summary: "the real clock, or a virtual one that jumps from deadline to deadline",
        text: [
          "--virtual-time (or 'clock virtual') runs jobs on one virtual clock per session: when nothing",
          "can run, it jumps to the next deadline, so an hour of timer ticks ends at once, the same on",
          "every run and in every build. In a script, time moves only while a statement waits (a foreground",
          "job, wait, sleep, send): statements in between start at the same instant. At the prompt it also",
          "runs while a line is read, so a background timer races ahead: bound it (take N), or type step",
          "first to hold the clock until run ('help step'). Before each statement, every",
          "job runs as far as it can at that instant (each job started has run to its first wait, each",
          "tick due then has come), as on the real clock; then the statement runs.",
          "print time: true, tap time: true and trace stamp lines with the session's time, from its start;",
          "'jobs' shows each job's own running time. Durations: 1.5, 250ms, 2s, 10m, 1h.",
        ],
        examples: ["timer 10m | take 2 | print time: true &\nsleep 15m\njobs"])
    case .channels:
      HelpTopic(
        kind: kind, usage: "channel NAME, send, close, fail, into",
        summary: "AsyncChannel between statements and jobs: back pressure, one consumer per element",
        text: [
          "channel NAME is a source fed by 'send NAME V…' or '… | into NAME'; each value goes to one",
          "consumer (several consumers split them), and send waits until a consumer takes it.",
          "close NAME finishes the channel; fail NAME \"MESSAGE\" ends it with an error (an",
          "AsyncThrowingChannel: any 'fail NAME' in a script makes the channel one from its first use).",
          "the element type comes from the first send (all its values: nil and \"a\" make String?), an",
          "into, or 'of: TYPE' (Int, Double, String, Bool, or one of them optional: String?).",
          "send also reaches a stream NAME (an AsyncStream: never waits, its buffer drops) and a subject",
          "NAME (a current value): 'help stream', 'help subject'.",
        ],
        examples: [
          "channel c of: Int? | compacted | print label: \"A\" &\nchannel c | print label: \"B\" &\nsend c 1 nil 2 3\nclose c\nwait"
        ])
    case .marbles:
      HelpTopic(
        kind: kind, usage: "marble \"…\", diagram, draw",
        summary: "marble diagrams: one character per tick",
        text: [
          "swift-async-algorithms' notation: in marble \"ab-c|\" a character is an element ('text' one of",
          "several characters; 'foo''bar' two, as AA reads it), - a tick with nothing, | the end, ^ a failure,",
          "; cancelled; [ab] one tick. Views write values back in this notation; control characters as",
          "in diagnostics (\\u{A}), so every stage keeps one line.",
          "marble \"…\" tick: 0.5 sets the tick; diagram prints a pipeline's output as one line;",
          "draw PIPELINE runs on a clock of its own and draws one line per stage.",
          "draw PIPELINE demand: true adds, under each lane, a mark a column of its demand (pull: nothing",
          "moves until a consumer calls next()). asked: - a request outstanding at the column's end; .",
          "one answered in the column (its element or end is on the lane above), none left; , no request",
          "at any instant of it (swift-async-algorithms' delay-next: the consumer asks later). A lane's",
          "element over . is AA's [e,]. sending to NAME (an into): > a send waiting for a consumer of",
          "NAME at the column's end, . one taken in it, a space: not sending. held (buffer, delay): how",
          "many it held at the column's end (+ ten or more), x where its policy dropped an element",
          "(as why N says); held (share): how many it held for its slowest reader. A sink is never",
          "asked: no line. A share's readers ask it each on their own: no asked line.",
          "draw \"F.trace\" demand: true draws asked and sending (a trace does not say which",
          "operator a node is: no held line). to: \"F.svg\" draws a band where a request was outstanding.",
          "RxJS's notation (TestScheduler, run mode): marble \"--a--b--|\" dialect: rxjs. A character is a",
          "frame of tick: (1ms unless given): - nothing, a a value, (ab) a and b at the frame of its (, its",
          "characters taking the frames after it as RxJS counts them ((ab) four), | complete, # error,",
          "! unsubscribed (the source is cancelled there, ; in pipesh's notation); spaces are ignored.",
          "Frame 0 is the first character, at the start (not one tick after it, as in pipesh's notation).",
          "A number with ms, s or m, first or after a space and with a space after it, is time passing",
          "(a 9ms b: b ten frames after a; a whole number of frames); written otherwise, as in RxJS, its",
          "characters are values. ^ is the subscription point (RxJS's hot observables), frame 0: a value",
          "before it was sent before the subscription and is not seen, an end before it ends at frame 0.",
          "With no |, # or ! the diagram never ends (until cancelled), as in RxJS.",
          "draw P dialect: rxjs writes the lanes so: frame N in column N of every lane under the ruler,",
          "a group's characters take the frames after it (draw picks a finer frame where they would run",
          "into the next event, and says so), a cancelled lane ends with !, a failed one with #. A value",
          "that is not one plain character (10, hello, a space, a -) is written as a letter no other value",
          "is, the same in every lane, and a line under the lanes lists them: a = 10, b = 12. marble",
          "\"LANE\" dialect: rxjs tick: D (D the ruler's frame) reads a lane back as the same events.",
        ],
        examples: [
          "marble \"ab-c|\" | map { $0 + \"!\" } | diagram", "draw marble \"a-b-c|\" | take 2",
          "draw marble \"X-12-34-5|\" | buffer 2 policy: oldest | work 3 demand: true",
          "draw (marble \"a 4ms b-c|\" dialect: rxjs) | map { $0 + \"!\" } dialect: rxjs",
        ])
    case .serve:
      HelpTopic(
        kind: kind, usage: "pipesh serve [--port N] [--present] [F.trace]",
        summary: "a page in the browser that runs and draws what you type, or watches this session",
        text: [
          "pipesh serve, from the system's shell, starts pipesh-serve (built beside pipesh: swift build -c",
          "release --product pipesh-serve; Scripts/pipesh serve builds it) and prints its URL, on 127.0.0.1",
          "only (--port N, 8080 unless given; 0 any free port; a port in use: status 1). Each browser tab",
          "is a session of its own: as you type a pipeline or a script, the page runs it on a virtual",
          "clock and shows its output and errors, with carets, and draws every pipeline statement as",
          "draw P demand: true draws it to a file (one that never ends stops at draw's horizon), with",
          "its task tree as tasks N prints it, and every draw, trace and compare. The lanes of marble \"…\" sources are editable: drag a marble,",
          "add or remove one, move the end or make it a failure, and the text and every lane below follow.",
          "The page runs nothing that reads or writes a file or the terminal (to: \"F\", load, lines,",
          "stdin, replay, history), nor clock real: a link to it carries the script, and anyone who",
          "opens it runs it.",
          "pipesh serve --present instead runs this interactive shell and lets any number of browsers",
          "watch it, read-only and live: the lines typed, what the session prints, top while jobs run,",
          "and the latest picture. Ctrl-C stops a served page's server; in a presentation it cancels the",
          "job at the prompt as usual, and quit (or Ctrl-D) ends the shell and the presentation.",
          "pipesh serve F.trace also serves a saved trace's drawing (a probe's recorder.write(toFile:),",
          "pipesh attach --save, trace P to: \"F.trace\") at /trace: the page draw \"F.trace\" to: \"F.html\"",
          "writes, drawn by pipesh before the server starts (a file that is no trace: status 2); the",
          "server reads no file a request names.",
        ],
        examples: ["draw marble \"a-b|\" | map { $0 + \"!\" } demand: true"])
    case .attach:
      HelpTopic(
        kind: kind, usage: "pipesh attach SOCKET [-c TEXT] [--save F.trace]",
        summary: "watches your own program's probes (PipeshProbe) while it runs",
        text: [
          "pipesh attach, from the system's shell, opens a session on the socket a program's",
          "ProbeRecorder listens on (recorder.listen(onSocket:)): jobs, top, tasks, draw [NAME…],",
          "why FROM TO, sleep D and save \"F.trace\" read its probes' trace as it is at that moment; the",
          "program runs on, and quit (or Ctrl-D) detaches. -c TEXT runs those statements and ends;",
          "without a terminal (or with --save F.trace) it draws the probes once. A trace the program",
          "saved (recorder.write(toFile:)) or attach saved is read here with draw \"F.trace\", replay",
          "\"F.trace\", tasks \"F.trace\" and why \"F.trace\" FROM TO, and in the browser with pipesh",
          "serve F.trace. Docs/probe.md says how to probe a program. Its draw draws a program's",
          "lanes as draw draws a pipeline's: keys probed before a debounce and after it draw as this",
          "pipeline does.",
        ],
        examples: ["draw marble \"-a-b-c---d-|\" | debounce 2"])
    }
  }
}
