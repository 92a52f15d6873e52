/// The words the parser treats specially. They come from the registries above it (the shell's
/// commands, the runtime's combinators), so the parser names none of them itself.
public struct Grammar: Sendable {
  /// Words that start a shell command rather than a pipeline.
  public let commands: Set<String>
  /// Commands whose argument is a pipeline (`trace PIPELINE`), with the labels that end the
  /// pipeline and start the command's own options (`draw PIPELINE tick: 0.5`).
  public let pipelineCommands: [String: Set<String>]
  /// Stages that take pipelines in parentheses; any other name with `(` is a call written the
  /// wrong way (`timer(1)`).
  public let combinators: [String]
  /// Commands that are also the names of stages (`fail NAME "…"` and the source `fail "…"`): such
  /// a word starts a command only when a bare name follows it.
  public let commandsAlsoStages: Set<String>
  /// Stages whose `{ … }` argument is a pipeline, not an expression (`flatMap { from $0 $0 }`).
  public let pipelineClosures: Set<String>
  /// The labels after which a stage's `( … )` is a pipeline, not an expression, by stage
  /// (`chunked by: (timer 1)`): a sequence the stage reads beside its upstream.
  public let pipelineArguments: [String: Set<String>]
  /// What a command written with `&` says besides that it runs in the foreground, by command
  /// (`send`: how a pipeline sends in the background).
  public let backgroundNotes: [String: String]
  /// Commands whose `{ … }` is taken as written, up to its matching `}` (`validate { … }`, which
  /// holds Swift).
  public let verbatimBlocks: Set<String>
  /// Commands whose pipeline ends at one of these words, which starts what the command claims of
  /// it (`expect P == "ab|"`, `expect P prints 1 2`): the word, then the command's arguments.
  public let claimWords: [String: Set<String>]
  /// The names of the stages, or nil to take any name for one. A name written with `(` that is no
  /// stage gets no "write it without parentheses": the checker says what the word is (Combine's
  /// `prefix(1)` is `take 1`) instead of a rewrite into a stage that does not exist.
  public let stages: Set<String>?
  /// The labels each stage takes (`marble`: `tick`, `dialect`), so that a command option written
  /// after a stage that takes it too (`draw marble "ab|" tick: 2 | map …`) is left to the checker's
  /// one error, not followed by another for the stages after it.
  public let stageLabels: [String: Set<String>]

  public init(
    commands: Set<String>, pipelineCommands: [String: Set<String>], combinators: [String],
    commandsAlsoStages: Set<String>, pipelineClosures: Set<String> = [],
    pipelineArguments: [String: Set<String>] = [:], backgroundNotes: [String: String] = [:],
    verbatimBlocks: Set<String> = [],
    claimWords: [String: Set<String>] = [:], stages: Set<String>? = nil, stageLabels: [String: Set<String>] = [:]
  ) {
    self.stages = stages
    self.stageLabels = stageLabels
    self.verbatimBlocks = verbatimBlocks
    self.claimWords = claimWords
    self.commands = commands
    self.pipelineCommands = pipelineCommands
    self.combinators = combinators
    self.commandsAlsoStages = commandsAlsoStages
    self.pipelineClosures = pipelineClosures
    self.pipelineArguments = pipelineArguments
    self.backgroundNotes = backgroundNotes
  }

  /// "merge(…), zip(…) and chain(…)", for messages.
  public var combinatorList: String {
    let written = combinators.map { "\($0)(…)" }
    guard let last = written.last else { return "none" }
    return written.count == 1 ? last : written.dropLast().joined(separator: ", ") + " and " + last
  }
}
