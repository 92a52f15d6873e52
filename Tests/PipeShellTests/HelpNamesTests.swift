import PipeRuntime
import PipeSema
import PipeShell
import Testing

/// `help NAME` names each argument as its usage line does (`take N`: N, not COUNT).
@Suite("help names")
struct HelpNamesTests {
  @Test(arguments: OperatorKind.signatures.all.map(\.name))
  func argumentsAreNamedAsInTheUsage(_ name: String) throws {
    let signature = try #require(OperatorKind.signatures[name])
    for (parameter, shown) in zip(signature.parameters, Shell.argumentNames(signature)) {
      if let label = parameter.label {
        #expect(shown == label + ":")
      } else {
        #expect(signature.usage.contains(shown), "\(signature.usage): \(shown)")
        #expect(shown != parameter.name.uppercased() || signature.usage.contains(shown), "\(signature.usage)")
      }
    }
  }
}
