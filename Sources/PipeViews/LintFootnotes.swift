import PipeSession

package extension Lints {
  /// `jobs`' footnotes: each warning once, with the jobs it holds for (`! 1, 2:`), wrapped.
  static func footnotes(_ lints: [JobLint], width: Int) -> [String] {
    var order: [String] = []
    var groups: [String: (text: String, jobs: [Int])] = [:]
    for lint in lints {
      // The same warning of several jobs is one footnote, its job numbers written N.
      let general = "\(lint.why); \(lint.fixing("N"))"
      if groups[general] == nil {
        order.append(general)
        groups[general] = ("\(lint.why); \(lint.fix)", [])
      }
      groups[general]?.jobs.append(lint.job)
    }
    return order.flatMap { general -> [String] in
      guard let (text, ids) = groups[general] else { return [] }
      let shown =
        ids.count > 3
        ? "\(ids[0]), \(ids[1]) … \(ids[ids.count - 1]) (\(ids.count) jobs)"
        : ids.map(String.init).joined(separator: ", ")
      let line = "! \(shown): " + (ids.count == 1 ? text : general)
      return Format.wrapped(line, width: width)
    }
  }
}
