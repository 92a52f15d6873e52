import Locking
import Markup
import PipeSession

/// `pipesh --html FILE.pipe`: the script's run as one self-contained page, like a notebook: what it
/// printed (errors in red), and every `draw`, `trace` and `compare` as a picture with its text
/// below (`draw`'s and `compare`'s diagram; `trace`'s timed lines with what the job printed among
/// them, as the terminal shows them), in the order they came.
public final class Report: Sendable {
  private enum Part {
    case line(String, error: Bool)
    case picture(title: String, svg: String, text: [String])
    case outcomes(title: String, [Outcome])
  }

  /// One of `explore`'s outcomes, as its view shows it: a caption, its picture, and the statement
  /// that draws its order again.
  package struct Outcome: Sendable {
    let caption: String
    let svg: String
    let replay: String

    package init(
      caption: String, svg: String, replay: String
    ) {
      self.caption = caption
      self.svg = svg
      self.replay = replay
    }
  }

  private let parts = Locked<[Part]>([])
  private let title: String

  public init(title: String) {
    self.title = title
  }

  /// A line the script printed.
  public func addLine(_ text: String, error: Bool) {
    parts.withLock { $0.append(.line(text, error: error)) }
  }

  package func addPicture(title: String, svg: String, text: [String]) {
    parts.withLock { $0.append(.picture(title: title, svg: svg, text: text)) }
  }

  /// `explore`'s outcomes, side by side: on `pipesh serve`'s page each one's button runs its
  /// `draw P order: TOKEN`.
  package func addOutcomes(title: String, _ outcomes: [Outcome]) {
    parts.withLock { $0.append(.outcomes(title: title, outcomes)) }
  }

  /// The page.
  public var html: String {
    PicturePage.document(title: title, body: body)
  }

  /// What goes inside the page's body, without the document around it or its heading: what
  /// `pipesh --page` prints for `pipesh serve`'s page.
  public var fragment: String { body + "\n" }

  private var body: String {
    var body: [String] = []
    var run: [String] = []
    func endRun() {
      guard !run.isEmpty else { return }
      body.append("<pre class=\"output\">" + run.joined(separator: "\n") + "</pre>")
      run = []
    }
    for part in parts.withLock({ $0 }) {
      switch part {
      case .line(let text, let error):
        let escaped = Markup.escaped(text, .picture)
        run.append(error ? "<span class=\"error\">\(escaped)</span>" : escaped)
      case .picture(let title, let svg, let text):
        endRun()
        body.append("<section>")
        body.append("<h2>\(Markup.escaped(title, .picture))</h2>")
        body.append("<figure>\n" + svg.trimmingSuffix("\n") + "\n</figure>")
        body.append("<pre class=\"text\">\(text.map { Markup.escaped($0, .picture) }.joined(separator: "\n"))</pre>")
        body.append("</section>")
      case .outcomes(let title, let outcomes):
        endRun()
        body.append("<section class=\"explore\">")
        body.append("<h2>\(Markup.escaped(title, .picture))</h2>")
        body.append("<div class=\"outcomes\">")
        for outcome in outcomes {
          body.append("<figure class=\"outcome\">")
          body.append(
            "<figcaption>\(Markup.escaped(outcome.caption, .picture)) <button type=\"button\" class=\"replay\" "
              + "data-statement=\"\(Markup.escaped(outcome.replay, .html))\" title=\""
              + "\(Markup.escaped(outcome.replay, .html))\">draw this order</button></figcaption>")
          body.append(outcome.svg.trimmingSuffix("\n"))
          body.append("</figure>")
        }
        body.append("</div>")
        body.append("</section>")
      }
    }
    endRun()
    return body.joined(separator: "\n")
  }
}
