import ArgumentParser
import PipeShell
import Platform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh fmt [--check] [FILE…]`: a subcommand of pipesh's, when `fmt` is its first argument.
struct PipeshFmt: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fmt",
    abstract: "Write .pipe scripts in the one layout of pipesh's docs.",
    discussion: """
      Each FILE is rewritten in place (a file already in the layout is left alone); without FILE, \
      standard input is written to standard output. The layout: one space around | and binary \
      operators, one after , and a label's :, { $0 * 2 } for closures, none inside ( ) and [ ]; \
      comments, line breaks, continuations, strings and validate blocks stay as written, and so \
      does every space the script's meaning reads (f(x) against f (x), -1). What a script does \
      never changes. A script with a syntax error is left untouched and its errors are said.
      Exit status: 0 formatted (with --check: all in the layout), 1 with --check some file is not \
      in the layout (each is named) or a file could not be written, 2 a file could not be read or \
      has a syntax error.
      """
  )

  @Flag(help: "Write nothing: name each FILE not in the layout, and exit 1 if there is one.")
  var check = false

  @Argument(help: ArgumentHelp("The scripts to format (standard input when none).", valueName: "FILE"))
  var files: [String] = []

  func run() throws {
    Platform.exit(FormatFiles.run(files, check: check))
  }
}
