import ArgumentParser

/// `pipesh`: argument parsing and nothing else. Every entry point of the executable is a
/// subcommand, listed by `pipesh --help`; `run` (a script, `-c TEXT` or the interactive shell) is
/// the default, so `pipesh`, `pipesh FILE` and `pipesh -c TEXT` need no subcommand word.
struct Pipesh: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pipesh",
    abstract: "A shell for composing Swift AsyncSequence pipelines.",
    usage: """
      pipesh [run] [<options>] [<file>]
      pipesh test [<options>] [<PATH> ...]
      pipesh serve [<options>]
      pipesh attach <SOCKET> [<options>]
      pipesh fmt [--check] [<FILE> ...]
      pipesh lsp
      """,
    discussion: """
      pipesh FILE runs a .pipe script and pipesh -c TEXT the statements in TEXT; with neither, \
      pipesh is an interactive shell when standard input is a terminal, and otherwise reads \
      statements from standard input like a script. pipesh help run lists their options.
      Exit status: 0 success, 1 a pipeline failed, 2 usage or parse/type error, 130 interrupted.
      A subcommand is one only as pipesh's first argument: a script named test (or serve, attach, \
      fmt, lsp, run, help) runs as pipesh ./test.
      """,
    version: "pipesh 0.1.0",
    subcommands: [
      PipeshRun.self, PipeshTest.self, PipeshServe.self, PipeshAttach.self, PipeshFmt.self, PipeshLSP.self,
    ],
    defaultSubcommand: PipeshRun.self
  )
}
