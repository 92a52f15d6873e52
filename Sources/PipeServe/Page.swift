/// The page `GET /` serves: one self-contained HTML file (its style and script inline, nothing
/// fetched from anywhere), embedded in the binary. Present mode serves the same page told so.
enum Page {
  static func html(present: Bool) -> String {
    let text = String(decoding: PackageResources.page_html, as: UTF8.self)
    return text.replacingOccurrences(of: "data-mode=\"edit\"", with: "data-mode=\"\(present ? "present" : "edit")\"")
  }
}
