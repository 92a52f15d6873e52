import AsyncAlgorithms
import MarbleTesting
import Testing

/// `Marbles.explore`, `Marbles.record(order:)` and `expectMarbles(…, in: .everyOrder)`: the orders of
/// the tasks runnable at one instant of the test clock, each outcome once, for the user's own
/// sequences.
@Suite("MarbleTesting explores every order", .serialized)
struct ExploreTests {
  @Test func aMergeOfTwoInputsAtOneInstantHasBothOrders() async throws {
    let exploration = await Marbles.explore { clock in
      merge(try MarbleInput("a|", clock: clock), try MarbleInput("b|", clock: clock))
    }
    // The clock's own order gives [ab]; only some orders give [ba], which explore finds, and it
    // runs them all (a task going on after a hop between executors is no choice: with hops as
    // choices there were more than 2000 orders), as many as the shell's explore runs for
    // `merge(marble "a|", marble "b|")`: the recorder's own tasks are no choice either.
    #expect(exploration.outcomes.map(\.marbles.description) == ["[ab]|", "[ba]|"])
    #expect(exploration.all)
    #expect(exploration.orders == 192)
    // A horizon adds no orders: its task is the recorder's.
    let cut = await Marbles.explore(until: .seconds(5)) { clock in
      merge(try MarbleInput("a|", clock: clock), try MarbleInput("b|", clock: clock))
    }
    #expect(cut.orders == exploration.orders)
    let other = try #require(exploration.outcomes.last)
    // Its token runs that order again; a malformed token, or one of another run, is nil.
    let replayed = await Marbles.record(order: other.token) { clock in
      merge(try MarbleInput("a|", clock: clock), try MarbleInput("b|", clock: clock))
    }
    #expect(replayed?.description == "[ba]|")
    #expect(await Marbles.record(order: "x1") { clock in try MarbleInput("a|", clock: clock) } == nil)
    #expect(await Marbles.record(order: "o5") { clock in try MarbleInput("a|", clock: clock) } == nil)
  }

  @Test func aSequenceWithoutChoicesHasOneOrder() async {
    let exploration = await Marbles.explore { clock in try MarbleInput("a-b|", clock: clock) }
    #expect(exploration.all)
    #expect(exploration.orders == 1)
    #expect(exploration.outcomes.map(\.description) == ["a-b| (1 order, order: o)"])
  }

  @Test func anExpectationInEveryOrderFailsOnTheFirstOrderThatBreaksIt() async {
    await expectMarbles("a-b|", in: .everyOrder) { clock in try MarbleInput("a-b|", clock: clock) }
    await withKnownIssue {
      await expectMarbles("[ba]|", in: .everyOrder) { clock in
        merge(try MarbleInput("a|", clock: clock), try MarbleInput("b|", clock: clock))
      }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined().hasPrefix("in order 1 of every order (order: o0")
    }
  }

  @Test func anExpectationNotCheckedInEveryOrderIsNotMet() async {
    await withKnownIssue {
      await expectMarbles("ab|", in: .everyOrder(limit: 2)) { clock in
        merge(try MarbleInput("a-|", clock: clock), try MarbleInput("-b|", clock: clock))
      }
    } matching: { issue in
      issue.comments.map(\.rawValue).joined()
        == "not checked in every order: it held in the 2 orders checked, and more remain "
        + "(.everyOrder(limit: N) checks up to N)"
    }
  }

  /// Elements at different steps: the orders differ (which input's task runs first at each step),
  /// the outcome does not, and every order is run.
  @Test func aMergeOfInputsAtDifferentStepsHasOneOutcomeInEveryOrder() async {
    let exploration = await Marbles.explore { clock in
      merge(try MarbleInput("a-|", clock: clock), try MarbleInput("-b|", clock: clock))
    }
    #expect(exploration.all)
    #expect(exploration.orders > 2)
    #expect(exploration.outcomes.map(\.marbles.description) == ["ab|"])
    await expectMarbles("ab|", in: .everyOrder) { clock in
      merge(try MarbleInput("a-|", clock: clock), try MarbleInput("-b|", clock: clock))
    }
  }
}
