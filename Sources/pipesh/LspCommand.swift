import ArgumentParser
import LanguageServer
import Platform

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `pipesh lsp`: a subcommand of pipesh's, when `lsp` is its first argument.
struct PipeshLSP: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lsp",
    abstract: "A language server for .pipe files (the Language Server Protocol on standard input and output).",
    discussion: """
      An editor starts it and speaks JSON-RPC 2.0 with it, each message after a Content-Length \
      header. It publishes what pipesh --check says of each open file as you edit, and answers \
      hover (what help NAME says), completion (what Tab offers in the shell, with the file's let \
      and channel names), go to definition of let names and channels, document symbols, \
      formatting (pipesh fmt's layout) and the code action "Export as Swift". Positions count \
      UTF-16 code units unless the client offers utf-8. Docs/editors.md says how to set up an editor.
      Exit status: 0 after shutdown and exit, 1 after exit without shutdown or when standard input \
      ends first.
      """
  )

  func run() async throws {
    Platform.exit(await LanguageServerLoop.run())
  }
}
