import PipeRuntime
import PipeSyntax

extension Commands {
  /// `load "FILE"`: runs a script file inside this shell, with its bindings and jobs.
  enum Load {
    static let entry = Command.file("load", usage: "load \"FILE\"", summary: "runs a script file inside this shell") {
      shell, path in
      await shell.load(path)
    }.example("load \"Examples/merge-two-timers.pipe\"", runs: false)
  }
}

extension Shell {
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
}
