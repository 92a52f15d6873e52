import AsyncAlgorithms
import Foundation

/// Runs one job of the script, and prints its error as pipesh does: `error: [N] STAGE: MESSAGE`,
/// or the pipeline's text for an error that names no stage. Returns false when it failed.
func job(
  _ id: Int, _ pipeline: String? = nil, _ body: () async throws -> Void
) async -> Bool {
  do {
    try await body()
    return true
  } catch is CancellationError {
    return true
  } catch let error as StageError {
    printError("error: [\(id)] \(error.stage): \(error.message)")
  } catch {
    printError("error: [\(id)] " + (pipeline.map { "\($0): " } ?? "") + "\(error)")
  }
  return false
}

func printError(_ line: String) {
  var line = line + "\n"
  line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
