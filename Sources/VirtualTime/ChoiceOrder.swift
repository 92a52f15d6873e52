import Locking
import MarbleDiagrams

/// The order a run of `explore` (or a replay of one of its tokens) takes: at each *choice* — several
/// tasks that take part runnable at one virtual instant — which of them runs next. Tasks that do
/// not take part (pipesh's own bookkeeping, as `takesPart` says) are never a choice: they run as
/// soon as they are runnable, before any choice is made, so the choices do not depend on them.
public final class ChoiceOrder: Sendable {
  /// One choice made: the position picked among `count` runnable tasks, in the order they became
  /// runnable.
  public struct Choice: Sendable, Equatable {
    public let index: Int
    public let count: Int
  }

  private struct State {
    var replaying: [Int]
    var made: [Choice] = []
    /// The virtual instant (the clock's offset) of each choice in `made`.
    var instants: [Duration] = []
    /// A replayed choice was out of range of what was runnable then.
    var misfit = false
    /// After the replayed choices: each at random from this generator, not the first task.
    var random: SplitMix64?
  }

  /// Whether the task whose job is at this address takes part in choices (the runtime's tasks
  /// and the pipeline's); false for pipesh's own and for what is not a task. The driver asks when
  /// the job is enqueued, outside its lock.
  let takesPart: @Sendable (UInt) -> Bool
  /// Whether it picks the task to run at a choice; false: it only watches the clock's own order
  /// (the first runnable task, pipesh's own included) and notes each choice it passes (`draw`).
  let picks: Bool
  private let state: Locked<State>

  /// An order that makes the choices `replaying` names, in turn, then the first task at each
  /// choice after them.
  public init(replaying: [Int], takesPart: @escaping @Sendable (UInt) -> Bool) {
    self.takesPart = takesPart
    picks = true
    state = Locked(State(replaying: replaying))
  }

  /// An order that makes each choice at random, from a generator seeded with `seed`: the same
  /// seed, the same choices (`explore`'s orders at random; `made` replays it as a token).
  public init(randomFrom seed: UInt64, takesPart: @escaping @Sendable (UInt) -> Bool) {
    self.takesPart = takesPart
    picks = true
    state = Locked(State(replaying: [], random: SplitMix64(seed: seed)))
  }

  /// No order of its own: the run goes as the clock runs it without one, and `made` says where
  /// it passed a choice (a task that takes part first among several runnable), each the first.
  public init(watching takesPart: @escaping @Sendable (UInt) -> Bool) {
    self.takesPart = takesPart
    picks = false
    state = Locked(State(replaying: []))
  }

  /// The choices made so far.
  public var made: [Choice] { state.withLock { $0.made } }

  /// The virtual instant of each choice made so far (the time since the clock's start).
  public var instants: [Duration] { state.withLock { $0.instants } }

  /// Whether a replayed choice did not fit (its position was beyond what was runnable), or some
  /// were left over at the end of the run: the order was not one of this run's.
  public var misfit: Bool { state.withLock { $0.misfit || $0.made.count < $0.replaying.count } }

  /// A choice among `count` runnable tasks at `instant`: the position of the one to run.
  func choose(among count: Int, at instant: Duration) -> Int {
    state.withLock { state in
      state.instants.append(instant)
      let position = state.made.count
      var index = 0
      if position < state.replaying.count {
        index = state.replaying[position]
      } else if var random = state.random {
        index = Int(random.next() % UInt64(count))
        state.random = random
      }
      if index >= count {
        state.misfit = true
        index = 0
      }
      state.made.append(Choice(index: index, count: count))
      return index
    }
  }
}
