// swift-tools-version: 6.2
import Foundation
import PackageDescription

let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]
/// Above the engine: a member of a module is used only where that module is imported, so nothing
/// reaches the runtime's types through what the engine returns.
let views: [SwiftSetting] = strict + [.enableUpcomingFeature("MemberImportVisibility")]

/// The test targets' settings. SwiftPM indexes every module of a debug build as it compiles it (a
/// quarter of the build's CPU here), though only the test targets need an index: test discovery
/// on Linux reads theirs. `Scripts/test` builds with `--disable-index-store` and names, in
/// `PIPESH_TEST_INDEX_STORE`, the index folder SwiftPM's discovery reads, for the test targets
/// alone. Without the variable (any other build) SwiftPM indexes as it always does.
let testStrict: [SwiftSetting] =
  strict
  + (ProcessInfo.processInfo.environment["PIPESH_TEST_INDEX_STORE"].map { [.unsafeFlags(["-index-store-path", $0])] }
    ?? [])

/// The Swift an exported program includes (pipesh's own operators, checked arithmetic, the job
/// runner), as real source files in `Sources/PipeExport/Support`: compiled and linted as the target
/// `ExportSupport`, and embedded into `PipeExport` as text.
let exportSupport = [
  "Absolute", "Adding", "ArithmeticError", "ChannelFailure", "Checked", "CheckedAccumulating", "CheckedCount",
  "CheckedDuration", "CheckedRange", "CheckedSize",
  "CheckedStep", "ConcurrentFlatMap", "CurrentValue", "Delay", "Diagram", "Divided", "Element", "Enumerated",
  "Errors", "ExactInt", "Failed", "FlatMapLatest", "Job", "Lines", "Marble", "Multiplied", "Negated", "Never", "Random",
  "Remainder", "Rethrowing", "Stdin", "Subtracting", "Tap", "Timeout", "Timer", "Timestamp", "Work",
]

let package = Package(
  name: "pipesh",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "pipesh", targets: ["pipesh"]),
    .library(name: "MarbleTesting", targets: ["MarbleTesting"]),
    .executable(name: "pipesh-serve", targets: ["PipeServe"]),
    .library(name: "PipeshProbe", targets: ["PipeshProbe"]),
    // `swift package pipesh-test`: a package's .pipe marble tests, run by pipesh built as the tool.
    .plugin(name: "pipesh-test", targets: ["PipeshTestPlugin"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", exact: "1.6.0"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
    // `swift package generate-documentation --target MarbleTesting` (or PipeshProbe): their DocC.
    .package(url: "https://github.com/apple/swift-docc-plugin", exact: "1.5.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CEditLine",
      pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"])]
    ),
    // The C that observes tasks (tasks.c replaces `swift_task_create` in whatever links it).
    .target(name: "CPipeSupport"),
    // The pipesh process's signal pipe and its standard descriptors held at start (C: a handler may
    // only make async-signal-safe calls).
    .target(name: "CProcess"),
    // Whole text files read with a shell's checks, and the standard descriptors as pipesh found
    // them: below the engine, so the views that read files need nothing of it.
    .target(name: "TextFiles", dependencies: ["Platform", "CProcess"], swiftSettings: strict),
    .target(name: "Locking", swiftSettings: strict),
    // What Linux and macOS answer differently (the executable's path, resident memory, a thread,
    // a socket's flags) and the C library's calls that a method of the same name would shadow.
    .target(name: "Platform", swiftSettings: strict),
    // Text escaped for XML and HTML: the shell's pictures and reports and pipesh-serve share it.
    .target(name: "Markup", swiftSettings: strict),
    // Child processes started with posix_spawn, waited for and signalled: the shell's `serve
    // --present`, `pipesh test`'s runs and pipesh-serve's runs share it. CLaunch shows it glibc's
    // GNU spawn actions.
    .target(name: "CLaunch"),
    .target(name: "Launch", dependencies: ["CLaunch"], swiftSettings: strict),
    // Marble diagrams and their comparison; the shell's `expect` and MarbleTesting share them.
    .target(name: "MarbleDiagrams", swiftSettings: strict),
    // Declares the runtime's global-enqueue hook; defines nothing (unlike CPipeSupport, whose
    // tasks.c replaces `swift_task_create` in whatever links it).
    .target(name: "CEnqueueHook"),
    // The virtual clock's one driver: the shell's clock, `draw`'s, `explore`'s and MarbleTesting's.
    // It links no task hooks: the shell's observation of tasks is added from above (PipeRuntime).
    .target(
      name: "VirtualTime",
      dependencies: [
        "Platform", "CEnqueueHook", "Locking", "MarbleDiagrams",
        .product(name: "DequeModule", package: "swift-collections"),
      ],
      swiftSettings: strict
    ),
    // Marble tests for any AsyncSequence, the user's own package's too: a test clock on the virtual
    // clock's driver, the recorder and Swift Testing's expectation. Nothing of the shell.
    .target(
      name: "MarbleTesting", dependencies: ["Platform", "MarbleDiagrams", "VirtualTime", "Locking"],
      swiftSettings: strict
    ),
    .target(name: "PipeSyntax", swiftSettings: strict),
    // The saved trace's format (`trace … to:`, `--record`), written and read: below the engine, so
    // that what reads or writes traces without running pipelines needs nothing of it.
    .target(name: "TraceFormat", dependencies: ["PipeSyntax"], swiftSettings: strict),
    // Probes for a user's own program: its sequences recorded as a pipesh trace. Nothing of the
    // shell, the engine or their task hooks.
    .target(
      name: "PipeshProbe",
      dependencies: [
        "Platform", "TraceFormat", "Locking", .product(name: "DequeModule", package: "swift-collections"),
      ],
      swiftSettings: strict
    ),
    .target(name: "PipeSema", dependencies: ["PipeSyntax", "MarbleDiagrams"], swiftSettings: strict),
    .target(name: "PipeEvaluator", dependencies: ["PipeSema"], swiftSettings: strict),
    .target(
      name: "PipeRuntime",
      dependencies: [
        "Platform",
        "PipeSyntax", "PipeSema", "PipeEvaluator", "VirtualTime", "CPipeSupport", "Locking", "MarbleDiagrams",
        "TextFiles", .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ],
      swiftSettings: strict
    ),
    .target(
      name: "PipeCombine",
      dependencies: ["PipeSyntax", "PipeSema", "PipeEvaluator", .product(name: "OpenCombine", package: "OpenCombine")],
      swiftSettings: strict
    ),
    .target(
      name: "PipeExport", dependencies: ["PipeSyntax", "PipeSema"], exclude: ["Support"],
      resources: exportSupport.map { .embedInCode("Support/\($0).swift") }, swiftSettings: strict),
    .target(
      name: "ExportSupport",
      dependencies: [.product(name: "AsyncAlgorithms", package: "swift-async-algorithms")],
      path: "Sources/PipeExport/Support",
      swiftSettings: strict
    ),
    .target(
      name: "PipeSession",
      dependencies: [
        "Platform",
        "PipeSyntax", "PipeSema", "PipeEvaluator", "PipeRuntime", "VirtualTime", "Locking", "TraceFormat",
      ],
      swiftSettings: strict
    ),
    .target(name: "LineEditor", dependencies: ["Platform", "CEditLine", "Locking"], swiftSettings: strict),
    // The views: tables, `top`, task trees, trace lines, marble lanes, pictures and their page,
    // colour on a terminal; they read what the engine hands out and run nothing.
    .target(
      name: "PipeViews",
      dependencies: [
        "PipeSyntax", "PipeSema", "PipeSession", "PipeCombine", "Markup", "Locking", "TraceFormat", "TextFiles",
        "MarbleDiagrams",
      ],
      swiftSettings: views
    ),
    .target(
      name: "PipeShell",
      dependencies: [
        "Platform", "PipeViews",
        "PipeSyntax", "PipeSema", "PipeEvaluator", "PipeSession", "PipeCombine", "PipeExport",
        "LineEditor", "Locking", "CProcess", "TextFiles", "VirtualTime", "MarbleDiagrams", "Markup", "Launch",
        "TraceFormat",
      ],
      swiftSettings: views
    ),
    // `pipesh lsp`: the Language Server Protocol for .pipe files, answered by the shell's parser,
    // checker, help, completion and formatter.
    .target(
      name: "LanguageServer", dependencies: ["Platform", "PipeShell", "PipeSession", "PipeSema", "PipeSyntax"],
      swiftSettings: strict),
    .executableTarget(
      name: "pipesh",
      dependencies: [
        "Platform",
        "PipeShell", "PipeSession", "PipeshProbe", "TraceFormat", "LanguageServer",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strict
    ),
    .executableTarget(
      name: "PipeFuzz",
      dependencies: [
        "PipeSyntax", "PipeSema", "PipeSession", "PipeShell", "PipeExport", "TraceFormat", "LanguageServer",
      ],
      swiftSettings: strict),
    // `pipesh serve`'s server: the page, its WebSocket sessions and the presented shell. It runs
    // pipesh as a process per edit and links no engine module; nothing depends on it.
    .target(name: "ServeProtocol", swiftSettings: strict),
    .executableTarget(
      name: "PipeServe",
      dependencies: [
        "Platform",
        "ServeProtocol", "Markup", "Launch", .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      resources: [.embedInCode("Page/page.html")],
      swiftSettings: strict
    ),
    .executableTarget(name: "ServeFuzz", dependencies: ["ServeProtocol"], swiftSettings: strict),
    .executableTarget(
      name: "PipeBench",
      dependencies: ["Platform", "PipeshProbe", .product(name: "AsyncAlgorithms", package: "swift-async-algorithms")],
      swiftSettings: strict
    ),
    // The parser's and the checker's tests link neither the runtime nor the shell: the grammar of
    // the commands is PipeSema's.
    .plugin(
      name: "PipeshTestPlugin",
      capability: .command(
        intent: .custom(verb: "pipesh-test", description: "Run the package's .pipe marble tests with pipesh test")),
      dependencies: ["pipesh"]
    ),
    .testTarget(name: "PipeSyntaxTests", dependencies: ["PipeSyntax", "PipeSema"], swiftSettings: testStrict),
    .testTarget(
      name: "PipeSemaTests", dependencies: ["PipeSyntax", "PipeSema", "MarbleDiagrams"], swiftSettings: testStrict),
    // The runtime's own tests link neither the engine nor the shell: an edit to the runtime runs
    // them without compiling the shell first (the AA canaries, each beside its workaround).
    .testTarget(
      name: "PipeRuntimeTests",
      dependencies: [
        "PipeRuntime", "PipeSema", "VirtualTime", .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ],
      swiftSettings: testStrict
    ),
    // The virtual clock in process, without the engine: its order, its stalls, AA on it.
    .testTarget(
      name: "VirtualTimeTests",
      dependencies: ["VirtualTime", .product(name: "AsyncAlgorithms", package: "swift-async-algorithms")],
      swiftSettings: testStrict
    ),
    // The export in process: text to Swift, without pipesh or the compiler.
    .testTarget(
      name: "PipeExportTests", dependencies: ["PipeSyntax", "PipeSema", "PipeExport", "PipeShell"],
      swiftSettings: testStrict),
    // In process, through the shell a user types into: the catalogue walked, help, completion,
    // cancellation and task lifetimes, fusion, marbles, `why`, AA's validation diagrams drawn.
    .testTarget(
      name: "PipeShellTests",
      dependencies: [
        "PipeSyntax", "PipeSema", "PipeRuntime", "PipeSession", "PipeShell", "PipeViews", "VirtualTime",
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ],
      swiftSettings: testStrict
    ),
    .testTarget(
      name: "PipeCombineTests",
      dependencies: [
        "PipeCombine", "PipeRuntime", "PipeSema", "PipeShell", "PipeSyntax",
        .product(name: "OpenCombine", package: "OpenCombine"),
      ],
      swiftSettings: testStrict
    ),
    .testTarget(
      name: "PipeSessionTests", dependencies: ["PipeSyntax", "PipeSema", "PipeRuntime", "PipeSession", "Locking"],
      swiftSettings: testStrict),
    .testTarget(
      name: "MarbleTestingTests",
      dependencies: [
        "MarbleTesting", "VirtualTime", .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ],
      swiftSettings: testStrict
    ),
    .testTarget(
      name: "PipeshProbeTests",
      dependencies: [
        "PipeshProbe", "TraceFormat", "Locking", .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ],
      swiftSettings: testStrict
    ),
    // pipesh as a process; a probed marble test's trace (PipeshProbe, MarbleTesting) to draw.
    .testTarget(
      name: "TranscriptTests",
      dependencies: [
        "Markup", "Locking", "MarbleTesting", "PipeshProbe",
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ],
      exclude: ["Scripts"],
      swiftSettings: testStrict
    ),
    // The server and its page through headless Chromium: runs pipesh-serve and pipesh as processes.
    .testTarget(name: "ServeTests", dependencies: [], swiftSettings: testStrict),
    .testTarget(name: "ServeProtocolTests", dependencies: ["ServeProtocol"], swiftSettings: testStrict),
    .testTarget(name: "MarkupTests", dependencies: ["Markup"], swiftSettings: testStrict),
    .testTarget(name: "LaunchTests", dependencies: ["Launch"], swiftSettings: testStrict),
    // The language server in process: messages in, messages out.
    .testTarget(
      name: "LanguageServerTests", dependencies: ["LanguageServer", "PipeShell", "PipeSyntax"],
      swiftSettings: testStrict),
  ],
  swiftLanguageModes: [.v6]
)

/// The ThreadSanitizer build's test bundle: `Scripts/test` names in `PIPESH_TEST_TARGETS` the test
/// targets that run in process under ThreadSanitizer (the engine, the clock, the shell's
/// cancellation, MarbleTesting, the probes); the suites that run pipesh as a process run from the
/// plain debug bundle against the ThreadSanitizer pipesh, so the others are not compiled a second
/// time with it. Without the variable (any other build) every test target is in the package.
if let kept = ProcessInfo.processInfo.environment["PIPESH_TEST_TARGETS"] {
  let names = Set(kept.split(separator: ",").map(String.init))
  let tests = Set(package.targets.filter { $0.type == .test }.map(\.name))
  precondition(names.isSubset(of: tests), "PIPESH_TEST_TARGETS names no test target: \(names.subtracting(tests))")
  package.targets.removeAll { $0.type == .test && !names.contains($0.name) }
}
