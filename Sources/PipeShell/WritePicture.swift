import Markup
import PipeSession
import PipeViews
import TextFiles

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
