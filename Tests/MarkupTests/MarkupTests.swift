import Markup
import Testing

/// The one escaper's escapings, each as its users have always written it.
struct MarkupTests {
  @Test(arguments: [
    (Markup.Escaping.html, "&amp;&lt;&gt;&quot;'\t\n\r\u{1}\u{FFFE}"),
    (.picture, "&amp;&lt;&gt;&quot;&apos;\t\\u{A}\\u{D}\\u{1}\u{FFFE}"),
    (.xmlText, "&amp;&lt;&gt;\"'\t\n&#13;\u{FFFD}\u{FFFD}"),
    (.xmlAttribute, "&amp;&lt;&gt;&quot;&apos;&#9;&#10;&#13;\u{FFFD}\u{FFFD}"),
  ])
  func eachEscapingSaysWhatItEscapes(_ escaping: Markup.Escaping, _ expected: String) {
    #expect(Markup.escaped("&<>\"'\t\n\r\u{1}\u{FFFE}", escaping) == expected)
  }

  @Test func aCombiningMarkDoesNotHideWhatItFollows() {
    #expect(Markup.escaped("<\u{338}\"\u{301}", .picture) == "&lt;\u{338}&quot;\u{301}")
  }

  @Test func textWithNothingToEscapeIsKept() {
    #expect(Markup.escaped("timer 1 | take 2 → é", .picture) == "timer 1 | take 2 → é")
  }
}
