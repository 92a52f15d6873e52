import Markup
import PipeSession
import TextFiles

/// `… to: "F.html"`: one self-contained page (no network: the SVG, the styles inline, no script)
/// with the command, its picture, and its text under it for copying (the diagram; `trace`'s timed
/// lines). Hovering over an
/// element shows its time and value (the SVG's titles).
package enum PicturePage {
  package static func html(title: String, svg: String, text: [String]) -> String {
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

package extension String {
  /// The text without `suffix` at its end, if it ends so.
  func trimmingSuffix(_ suffix: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
  }
}
