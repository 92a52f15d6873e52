import PipeSema
import PipeSyntax
import PipeViews
import TextFiles

/// `pipesh fmt [--check] [FILE…]`: scripts in the docs' layout (`Formatter`).
public enum FormatFiles {
  /// Formats each file in place (a file already in the layout is not written), or standard input
  /// to standard output without files. With `check`, writes nothing and names each file that is
  /// not in the layout. Status: 0 done (or all in the layout), 1 some file not in the layout
  /// (`check`) or not written, 2 a file that cannot be read or has a syntax error (left untouched,
  /// its diagnostics said).
  public static func run(_ paths: [String], check: Bool) -> Int32 {
    guard !paths.isEmpty else {
      switch TextFile.read(descriptor: 0, strictly: true) {
      case .success(let text):
        let source = SourceFile(name: "<stdin>", text: text)
        guard let formatted = formatted(source) else { return 2 }
        if check { return formatted == text ? 0 : 1 }
        Console.writeNow(formatted)
        return 0
      case .failure(let failure):
        FileOutput.error("pipesh fmt: \(failure)")
        return 2
      }
    }
    var status: Int32 = 0
    for path in paths {
      let text: String
      switch TextFile.read(path, strictly: true) {
      case .success(let read): text = read
      case .failure(let failure):
        FileOutput.error("pipesh fmt: \(failure)")
        status = 2
        continue
      }
      guard let formatted = formatted(SourceFile(name: path, text: text)) else {
        status = 2
        continue
      }
      guard formatted != text else { continue }
      if check {
        Console.writeNow("\(path)\n")
        status = max(status, 1)
        continue
      }
      if case .failure(let failure) = TextFile.write(formatted, to: path) {
        FileOutput.error("pipesh fmt: \(failure)")
        status = max(status, 1)
      }
    }
    return status
  }

  /// The source in the layout; nil, with its syntax errors said, when it has some.
  private static func formatted(_ source: SourceFile) -> String? {
    switch Formatter.format(source, grammar: .pipesh) {
    case .success(let text): return text
    case .failure(let refusal):
      FileOutput.error(
        DiagnosticFormatter.render(refusal.diagnostics, in: source, decorator: Paint.diagnostics(for: 2))
          + "pipesh fmt: \(source.name ?? "the script") is left as it is: fix its syntax first\n")
      return nil
    }
  }
}
