import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `combineLatest`: emits a tuple of the latest element of each input whenever one changes.
  enum CombineLatest {
    static func run() -> Run {
      .node(
        build: { input in
          let i = input.inputs
          switch i.count {
          case 2: return ValueSequence(combineLatest(i[0], i[1]).map { Value.tuple([$0, $1]) })
          case 3: return ValueSequence(combineLatest(i[0], i[1], i[2]).map { Value.tuple([$0, $1, $2]) })
          default: throw input.bug("\(i.count) inputs for combineLatest")
          }
        },
        inputFinishing: .endsAllWhenEmpty)
    }
  }
}
