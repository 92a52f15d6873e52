import PipeSema
import PipeShell
import PipeSyntax

/// The TextMate grammar of `.pipe` files (`Editors/vscode/syntaxes/pipe.tmLanguage.json`), made
/// from the catalogue: its operator and command words are the checker's, so the file cannot drift
/// from them (a test compares it with this).
public enum TextMateGrammar {
  /// The grammar's JSON, keys sorted, with a final newline.
  public static var text: String {
    grammar.text(pretty: true) + "\n"
  }

  static var grammar: JSON {
    let operators = Set(OperatorKind.signatures.names + OperatorKind.aliases.keys).sorted()
    let commands = Commands.table.names.sorted()
    let number = "[0-9][0-9_]*(?:\\.[0-9][0-9_]*)?(?:[eE][+-]?[0-9]+)?"
    let units = ["ns", "us", "ms", "s", "m", "h"].filter { Duration.unitScale($0) != nil }
    return [
      "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
      "name": "pipesh", "scopeName": "source.pipe", "fileTypes": ["pipe"],
      "comment": "Made by pipesh from its catalogue (TextMateGrammar.swift): edit that, not this file.",
      "patterns": .array(
        [
          "comment", "marble", "string", "duration", "number", "dollar", "label", "keyword", "command", "operator",
          "punctuation",
        ].map { ["include": .string("#" + $0)] }),
      "repository": [
        "comment": ["match": "#.*$", "name": "comment.line.number-sign.pipe"],
        "string": [
          "begin": "\"", "end": "\"", "name": "string.quoted.double.pipe",
          "patterns": [["include": "#interpolation"], ["match": "\\\\.", "name": "constant.character.escape.pipe"]],
        ],
        // A marble diagram: its time steps, groups and ends stand apart from its values.
        "marble": [
          "begin": "\\b(marble)\\s+(\")", "end": "\"", "name": "string.quoted.double.marble.pipe",
          "beginCaptures": ["1": ["name": "support.function.operator.pipe"]],
          "patterns": [
            ["match": "[-|#^]", "name": "keyword.control.marble.pipe"],
            ["match": "[\\[\\]()]", "name": "punctuation.section.group.marble.pipe"],
          ],
        ],
        "interpolation": [
          "begin": "\\\\\\(", "end": "\\)", "name": "meta.interpolation.pipe",
          "patterns": [["include": "#parentheses"], ["include": "$self"]],
        ],
        "parentheses": ["begin": "\\(", "end": "\\)", "patterns": [["include": "$self"]]],
        "duration": [
          "match": .string("\\b\(number)(?:\(units.joined(separator: "|")))\\b"),
          "name": "constant.numeric.duration.pipe",
        ],
        "number": ["match": .string("\\b\(number)\\b"), "name": "constant.numeric.pipe"],
        "dollar": ["match": "\\$[0-9]+", "name": "variable.parameter.pipe"],
        "label": [
          "match": "\\b([A-Za-z_][A-Za-z0-9_]*)(:)(?!:)",
          "captures": ["1": ["name": "entity.other.attribute-name.label.pipe"]],
        ],
        "keyword": [
          "patterns": [
            ["match": "\\b(?:let|in)\\b", "name": "keyword.other.pipe"],
            ["match": "\\b(?:true|false|nil)\\b", "name": "constant.language.pipe"],
          ]
        ],
        // A command is the first word of a statement: at a line's start or after `;`.
        "command": [
          "match": .string("(?:^|(?<=;))\\s*\\b(\(commands.joined(separator: "|")))\\b"),
          "captures": ["1": ["name": "keyword.control.command.pipe"]],
        ],
        "operator": [
          "match": .string("\\b(?:\(operators.joined(separator: "|")))\\b"),
          "name": "support.function.operator.pipe",
        ],
        "punctuation": [
          "patterns": [
            ["match": "&&|\\|\\||[-+*/%<>=!?]=?", "name": "keyword.operator.arithmetic.pipe"],
            ["match": "\\|", "name": "keyword.operator.pipe.pipe"],
            ["match": "&", "name": "keyword.operator.background.pipe"],
            ["match": ";", "name": "punctuation.terminator.statement.pipe"],
          ]
        ],
      ],
    ]
  }
}
