import Foundation
import PackagePlugin

/// `swift package pipesh-test [PATH…]`: builds pipesh as this plugin's tool and runs `pipesh test`
/// on the package's `.pipe` files (every one under `Tests/` unless PATHs are given), writing
/// JUnit XML to `.build/pipesh-test.junit.xml`; the command fails when a test fails.
@main
struct PipeshTestPlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let root = context.package.directoryURL
    var paths = arguments.filter { !$0.hasPrefix("-") }
    if paths.isEmpty {
      paths = [root.appendingPathComponent("Tests").path]
    }
    let pipesh: URL
    do {
      pipesh = try context.tool(named: "pipesh").url
    } catch {
      // pipesh links libedit: a machine without it cannot build the tool.
      Diagnostics.error(
        "pipesh-test: pipesh could not be built (\(error)); it needs libedit: apt-get install libedit-dev on Debian")
      throw error
    }
    let junit = context.pluginWorkDirectoryURL.appendingPathComponent("pipesh-test.junit.xml")
    let process = Process()
    process.executableURL = pipesh
    process.arguments = ["test", "--junit", junit.path] + paths
    process.currentDirectoryURL = root
    try process.run()
    process.waitUntilExit()
    print("pipesh-test: JUnit XML in \(junit.path)")
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      // Thrown, and said once: SwiftPM prints the error (a diagnostic as well would say it twice).
      throw PipeshTestFailed(status: process.terminationStatus)
    }
  }
}

/// `pipesh test` failed (a test failed: 1; a PATH or the JUnit file could not be used: 2).
struct PipeshTestFailed: Error, CustomStringConvertible {
  let status: Int32
  var description: String { "pipesh-test: pipesh test exited with status \(status)" }
}
