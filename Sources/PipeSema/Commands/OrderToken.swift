import PipeSyntax

/// `explore`'s name for one order of a pipeline's run: a hash of the checked pipeline and the
/// choices made (the position picked at each choice, in turn). One opaque word: `o`, then the
/// bytes in lowercase base32 (RFC 4648's alphabet, no padding). The bytes are the hash (4, big
/// endian), then for each choice that is not the first task, how many first-task choices came
/// before it and its position, as LEB128 numbers; first-task choices at the end are left out.
/// The same pipeline gives the same word in every run, build and fusion mode.
public struct OrderToken: Sendable, Equatable {
  /// The hash of the pipeline it was made for.
  public let program: UInt32
  /// The position picked at each choice, in turn; after them, the first at every choice.
  public let choices: [Int]

  public init(program: UInt32, choices: [Int]) {
    self.program = program
    var choices = choices
    while choices.last == 0 { choices.removeLast() }
    self.choices = choices
  }

  /// The hash of a checked pipeline: FNV-1a over each of its stages (a `let` name's stages
  /// included, as the checker expanded them), each as its tokens, so that spacing and comments do
  /// not count.
  public static func hash(of pipeline: CheckedPipeline) -> UInt32 {
    var hash: UInt32 = 2_166_136_261
    func add(_ text: String) {
      for byte in text.utf8 {
        hash ^= UInt32(byte)
        hash = hash &* 16_777_619
      }
    }
    for stage in pipeline.allStages {
      let tokens = Lexer.tokenize(SourceFile(name: nil, text: stage.text)).tokens
      add(tokens.map(\.text).joined(separator: " "))
      add("\n")
    }
    return hash
  }

  /// Whether it was made for `pipeline`.
  public func fits(_ pipeline: CheckedPipeline) -> Bool { program == Self.hash(of: pipeline) }

  private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")

  /// The word `explore` prints.
  public var word: String {
    var bytes: [UInt8] = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: program >> $0) }
    func append(_ value: Int) {
      var rest = UInt(value)
      repeat {
        let low = UInt8(rest & 0x7f)
        rest >>= 7
        bytes.append(rest == 0 ? low : low | 0x80)
      } while rest != 0
    }
    var firsts = 0
    for choice in choices {
      guard choice != 0 else {
        firsts += 1
        continue
      }
      append(firsts)
      append(choice)
      firsts = 0
    }
    var text = "o"
    var buffer = 0
    var bits = 0
    for byte in bytes {
      buffer = buffer << 8 | Int(byte)
      bits += 8
      while bits >= 5 {
        bits -= 5
        text.append(Self.alphabet[(buffer >> bits) & 31])
      }
      buffer &= (1 << bits) - 1
    }
    if bits > 0 { text.append(Self.alphabet[(buffer << (5 - bits)) & 31]) }
    return text
  }

  /// Reads a word `explore` printed; nil when it is not one.
  public init?(word: String) {
    guard word.first == "o", word.count <= 4096 else { return nil }
    var bytes: [UInt8] = []
    var buffer = 0
    var bits = 0
    for character in word.dropFirst() {
      guard let value = Self.alphabet.firstIndex(of: character) else { return nil }
      buffer = buffer << 5 | value
      bits += 5
      if bits >= 8 {
        bits -= 8
        bytes.append(UInt8(truncatingIfNeeded: buffer >> bits))
      }
      buffer &= (1 << bits) - 1
    }
    guard bytes.count >= 4, buffer == 0 else { return nil }
    let program = bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    var numbers: [Int] = []
    var value = 0
    var shift = 0
    for byte in bytes.dropFirst(4) {
      guard shift < 28 else { return nil }
      value |= Int(byte & 0x7f) << shift
      shift += 7
      if byte & 0x80 == 0 {
        numbers.append(value)
        (value, shift) = (0, 0)
      }
    }
    guard shift == 0, numbers.count.isMultiple(of: 2) else { return nil }
    var choices: [Int] = []
    for pair in stride(from: 0, to: numbers.count, by: 2) {
      guard numbers[pair] <= 1_000_000, numbers[pair + 1] > 0, choices.count < 1_000_000 else { return nil }
      choices += Array(repeating: 0, count: numbers[pair])
      choices.append(numbers[pair + 1])
    }
    self.init(program: program, choices: choices)
    guard self.word == word else { return nil }
  }
}
