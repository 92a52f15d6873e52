import Foundation
import Testing

/// The `MarbleTesting` product from another package: a package generated beside the repository
/// (in `.build-marble-user/`, ignored by git) depends on this one by path and on
/// swift-async-algorithms, has an operator of its own, and tests it with `expectMarbles` under
/// Swift Testing, one test holding and one failing on purpose; `swift test` there must report the
/// holding one as passed and draw the failing one's lanes aligned under a ruler.
@Suite("MarbleTesting from another package", .serialized)
struct MarbleTestingPackageTests {
  static let root = ExportTests.root
  static let directory = root.appendingPathComponent(".build-marble-user")
  static let package = directory.appendingPathComponent("marble-user")

  static let manifest = """
    // swift-tools-version: 6.2
    import PackageDescription

    let package = Package(
      name: "marble-user",
      platforms: [.macOS(.v15)],
      dependencies: [
        .package(path: "\(root.path)"),
        .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
      ],
      targets: [
        .target(name: "Stutter"),
        .testTarget(
          name: "StutterTests",
          dependencies: [
            "Stutter", .product(name: "MarbleTesting", package: "\(root.lastPathComponent)"),
            .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
          ]),
      ],
      swiftLanguageModes: [.v6]
    )

    """

  static let operatorSource = """
    /// Repeats each element once more, `gap` after it came.
    public struct Stutter<Base: AsyncSequence, C: Clock>: AsyncSequence where Base.Element: Sendable {
      public typealias Element = Base.Element
      let base: Base
      let gap: C.Duration
      let clock: C

      public struct Iterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let gap: C.Duration
        let clock: C
        var pending: Element?

        public mutating func next() async throws -> Element? {
          if let element = pending {
            pending = nil
            try await clock.sleep(for: gap)
            return element
          }
          guard let element = try await base.next() else { return nil }
          pending = element
          return element
        }
      }

      public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator(), gap: gap, clock: clock)
      }
    }

    extension Stutter: Sendable where Base: Sendable, C: Sendable {}

    extension AsyncSequence where Element: Sendable {
      /// Each element twice: when it comes, and `gap` later.
      public func stutter<C: Clock>(every gap: C.Duration, clock: C) -> Stutter<Self, C> {
        Stutter(base: self, gap: gap, clock: clock)
      }
    }

    """

  static let testSource = """
    import AsyncAlgorithms
    import MarbleTesting
    import Stutter
    import Testing

    @Test func stutterRepeatsEachElementAStepLater() async throws {
      await expectMarbles("aabb-c[c|]") { clock in
        try! MarbleInput("a-b--c|", clock: clock).stutter(every: .seconds(1), clock: clock)
      }
    }

    @Test func stutterThenDebounceFailsOnPurpose() async throws {
      await expectMarbles("-----b-c|") { clock in
        try! MarbleInput("a-b--c|", clock: clock).stutter(every: .seconds(1), clock: clock)
          .debounce(for: .seconds(2), clock: clock)
      }
    }

    """

  @Test func anOperatorOfTheUsersOwnIsTestedWithSwiftTesting() throws {
    let files = [
      "Package.swift": Self.manifest, "Sources/Stutter/Stutter.swift": Self.operatorSource,
      "Tests/StutterTests/StutterTests.swift": Self.testSource,
    ]
    for (path, text) in files {
      let file = Self.package.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try ExportTests.write(text, to: file)
    }
    let scratch = [
      "--package-path", Self.package.path, "--scratch-path", Self.directory.appendingPathComponent("build").path,
    ]
    let build = try Command.run("/usr/bin/env", ["swift", "build", "--build-tests"] + scratch, limit: 900)
    #expect(build.status == 0, "the package does not build:\n\(build.stdout)\(build.stderr)")
    guard build.status == 0 else { return }
    let test = try Command.run("/usr/bin/env", ["swift", "test", "--skip-build"] + scratch, limit: 300)
    let output = test.stdout + test.stderr
    #expect(test.status != 0, "one test fails on purpose:\n\(output)")
    #expect(output.contains("✔ Test stutterRepeatsEachElementAStepLater() passed"), "\(output)")
    let drawing = """
      ↳ at step 7: expected nothing, got 'c' and finished (|) at once
                  1   5
        expected  -----b-    c|
        actual    -----b[c|]
                        ^
      """
    #expect(output.contains(drawing), "\(output)")
    #expect(output.contains("✘ Test stutterThenDebounceFailsOnPurpose() failed"), "\(output)")
  }
}
