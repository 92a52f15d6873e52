/// Lines as swift-format lays them out (at most 100 columns, its default), so that an exported
/// program passes `swift format lint --strict` as it is.
extension SwiftProgramWriter {
  /// A line of more than 100 characters as swift-format breaks it: a comment at a word, a call
  /// after its opening parenthesis, with the arguments on the next line (and where that is still
  /// too long, a trailing closure's body on a line of its own).
  static func wrapped(_ line: String) -> [String] {
    guard line.count > 100 else { return [line] }
    let indent = String(line.prefix { $0 == " " })
    let text = line.dropFirst(indent.count)
    if text.hasPrefix("// ") {
      var out: [String] = []
      var current = indent + "//"
      for word in text.dropFirst(3).split(separator: " ") {
        if current.count + word.count + 1 > 100 && current != indent + "//" {
          out.append(current)
          current = indent + "//  "
        }
        current += " " + word
      }
      return out + [current]
    }
    guard text.hasSuffix(")"), let open = opening(of: Array(text)) else { return [line] }
    let head = text[..<text.index(text.startIndex, offsetBy: open + 1)]
    let arguments = indent + "  " + text[text.index(text.startIndex, offsetBy: open + 1)...]
    guard arguments.count > 100, let closure = trailingClosure(arguments) else { return [indent + head, arguments] }
    return [indent + head] + closure + [indent + ")"]
  }

  /// `checked("…") { x in body })` as swift-format breaks it: `checked("…") { x in`, the body a
  /// level deeper, `}` (and the call's `)` on a line of its own).
  private static func trailingClosure(_ line: String) -> [String]? {
    let indent = String(line.prefix { $0 == " " })
    let text = Array(line.dropFirst(indent.count))
    guard text.count > 3, text.suffix(3) == [" ", "}", ")"],
      let open = opening(of: Array(text.dropLast()), "{", "}")
    else { return nil }
    var head = String(text[...open])
    var body = String(text[(open + 1)..<(text.count - 3)]).drop { $0 == " " }
    // The closure's parameters stay with its brace.
    if let inKeyword = body.firstRange(of: " in "),
      body[..<inKeyword.lowerBound].allSatisfy({ $0.isLetter || $0.isNumber || ", _$".contains($0) })
    {
      head += " " + body[..<inKeyword.lowerBound] + " in"
      body = body[inKeyword.upperBound...]
    }
    guard !body.isEmpty else { return nil }
    return [indent + head, indent + "  " + body, indent + "}"]
  }

  /// The offset of the `open` whose `close` ends `text`, outside string literals.
  private static func opening(of text: [Character], _ open: Character = "(", _ close: Character = ")") -> Int? {
    var depth = 0
    var inString = false
    var opens: [Int] = []
    var index = 0
    while index < text.count {
      let character = text[index]
      if inString {
        if character == "\\" {
          index += 1
        } else if character == "\"" {
          inString = false
        }
      } else if character == "\"" {
        inString = true
      } else if character == open {
        opens.append(index)
        depth += 1
      } else if character == close {
        depth -= 1
        let open = opens.popLast()
        if index == text.count - 1 { return depth == 0 ? open : nil }
      }
      index += 1
    }
    return nil
  }

  /// `let name = "text"`, on several lines where the text is long.
  static func splitLiteral(_ name: String, _ text: String) -> [String] {
    guard text.count > 60 else { return ["let \(name) = \(SwiftExpression.stringLiteral(text))"] }
    var pieces: [String] = []
    var piece = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if !piece.isEmpty && piece.count + word.count > 60 {
        pieces.append(piece + " ")
        piece = ""
      } else if !pieces.isEmpty || !piece.isEmpty {
        piece += piece.isEmpty ? "" : " "
      }
      piece += word
    }
    pieces.append(piece)
    return ["let \(name) ="]
      + pieces.enumerated().map { index, piece in
        "  " + (index == 0 ? "" : "+ ") + SwiftExpression.stringLiteral(piece)
      }
  }
}
