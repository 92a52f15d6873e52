import PipeSyntax
import PipeViews
import Testing
import VirtualTime

@testable import PipeRuntime
@testable import PipeSema
@testable import PipeSession
@testable import PipeShell

/// Walks the catalogue, so that what an operator waits on is never a list someone must remember:
/// every operator's example runs on a virtual clock of its own, a quarter second at a time, every
/// stage its own node. Whenever every task waits, a node that is asked and asks nothing itself
/// (its input is not asked, or has ended) waits on something of its own, the clock or a send: its
/// facts must say so, and `top` then says it. An operator made up tomorrow that sleeps on the
/// clock but is declared to wait on its upstream fails here, by name. (One that reads its input in
/// a task of its own while it waits on the clock, as `debounce` does, is not told apart here: its
/// input is asked meanwhile.)
@Suite("what operators wait on, walked from the catalogue")
struct WaitFactsTests {
  static let examples = CatalogueExamples.oneLine

  @Test(arguments: examples)
  func aNodeWaitingOnItsOwnSaysWhere(_ kind: OperatorKind) async throws {
    guard let pipeline = try CatalogueExamples.pipeline(kind) else { return }
    let (_, driver, job) = CatalogueExamples.start(pipeline)
    defer { driver.shutdown(waiting: .seconds(5)) }
    var steps = 0
    var gaps: Set<String> = []
    while steps < 400 {
      await driver.settle()
      for (node, first) in Self.waitingOnTheirOwn(job.nodes) {
        let place = node.facts?.waitsOn
        let snapshot = try #require(NodeSnapshot.of([node]).first)
        let said = TopView.waitsOn(snapshot, first: first, now: .zero)
        if place.map(Self.ownWait) != true || said == "upstream next()" {
          gaps.insert(
            "'\(node.text)' waits on its own (nothing it reads is asked), but its facts say "
              + "\(place.map { "\($0)" } ?? "nothing") and top says '\(said)'")
        }
      }
      if job.state != .running { break }
      await CatalogueExamples.advance(driver)
      steps += 1
    }
    #expect(gaps.isEmpty, "\(kind.name)'s example \(kind.signature.example): \(gaps.sorted())")
    // A job that ended by itself is not one the facts call endless (an operator that ends its
    // input early but is not declared so would have `lint` and a script's end call it endless).
    if job.state == .finished {
      #expect(
        !Lints.endless(job.nodes),
        "\(kind.name)'s example \(kind.signature.example) ended by itself, but the facts say it never ends")
    }
    if job.state == .running {
      job.cancel()
      await driver.run(until: { await job.wait() })
    }
  }

  /// Whether a node waiting there waits on something of its own rather than on its input.
  static func ownWait(_ place: WaitPlace) -> Bool {
    switch place {
    case .clock, .upstreamAndClock, .send, .file, .standardInput, .forever, .consumer: true
    case .nothing, .upstream: false
    }
  }

  /// The running nodes that are asked and ask nothing themselves now, each with whether it is a
  /// chain's first (as `top` is told).
  static func waitingOnTheirOwn(_ chain: [Node]) -> [(Node, Bool)] {
    var found: [(Node, Bool)] = []
    for (index, node) in chain.enumerated() {
      for input in node.inputs { found += waitingOnTheirOwn(input) }
      let children = node.children?.all ?? []
      for child in children { found += waitingOnTheirOwn(child) }
      guard node.state == .running, node.isAsked == true else { continue }
      let feeders = (index > 0 ? [chain[index - 1]] : node.inputs.compactMap(\.last)) + children.compactMap(\.last)
      // One it may be asking (or one pipesh cannot see asked) leaves it out.
      guard !feeders.contains(where: { $0.state == .running && $0.isAsked != false }) else { continue }
      found.append((node, index == 0))
    }
    return found
  }
}
