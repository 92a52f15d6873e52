import Markup
import PipeSession
import TextFiles

/// `… to: "F.html"`: one self-contained page (no network: the SVG, the styles inline, no script)
/// with the command, its picture, and its text under it for copying (the diagram; `trace`'s timed
/// lines). Hovering over an
/// element shows its time and value (the SVG's titles).
enum PicturePage {
  static func html(title: String, svg: String, text: [String]) -> String {
    return document(
      title: title,
      body: """
        <figure>
        \(svg.trimmingSuffix("\n"))
        </figure>
        <pre>\(text.map { Markup.escaped($0, .picture) }.joined(separator: "\n"))</pre>
        """)
  }

  /// A page with `title` as its heading and `body` after it, the styles inline.
  static func document(title: String, body: String) -> String {
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <title>pipesh: \(Markup.escaped(title, .picture))</title>
      <style>
      body { font-family: \(MarblePicture.fontFamily); margin: 24px; background: #ffffff; color: #111111; }
      h1, h2 { font-size: 16px; font-family: DejaVu Sans Mono, Menlo, Consolas, monospace; }
      figure { margin: 0 0 16px 0; overflow-x: auto; }
      pre { background: #f4f4f4; padding: 12px; overflow-x: auto; font-size: 13px; }
      .error { color: #b03a2e; }
      </style>
      </head>
      <body>
      <h1>\(Markup.escaped(title, .picture))</h1>
      \(body)
      </body>
      </html>

      """
  }
}

extension Shell {
  /// Writes a picture to `file`: the SVG, or the page around it for a name ending `.html`; then
  /// says where it went and its size. A file that cannot be written is an error (status 1).
  /// Without a file, the picture goes to the `--html` report. A presented session's feed gets it
  /// too (`pipesh serve --present`).
  func writePicture(_ file: String?, command: String, svg: String, title: String, text: [String]) {
    presentFeed?.picture(title: title, svg: svg)
    guard let file else {
      report?.addPicture(title: title, svg: svg, text: text)
      return
    }
    let page = file.lowercased().hasSuffix(".html") ? PicturePage.html(title: title, svg: svg, text: text) : svg
    switch TextFile.write(page, to: file) {
    case .success(let bytes):
      console.line("\(command): wrote \(file) (\(bytes) bytes)")
    case .failure(let failure):
      engine.commandFailed("\(command): \(failure); give a path in a directory you can write to")
    }
  }
}

extension String {
  func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
