import AsyncAlgorithms
import PipeSema

extension Operators {
  /// `zip`: emits tuples, pairing the inputs' elements in order.
  enum Zip {
    static func run() -> Run {
      .node(
        build: { input in
          let i = input.inputs
          switch i.count {
          case 2: return ValueSequence(zip(i[0], i[1]).map { Value.tuple([$0, $1]) })
          case 3: return ValueSequence(zip(i[0], i[1], i[2]).map { Value.tuple([$0, $1, $2]) })
          default: throw input.bug("\(i.count) inputs for zip")
          }
        },
        inputFinishing: .endsAll)
    }
  }
}
