/// What pipesh reports where Swift's own arithmetic would stop the program.
struct ArithmeticError: Error, CustomStringConvertible {
  let message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}
