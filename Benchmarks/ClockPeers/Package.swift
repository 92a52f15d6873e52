// swift-tools-version: 6.2
import PackageDescription

// The peers of pipesh's virtual clock, for `Scripts/bench --only clocks`: MarbleTesting's TestClock
// and swift-clocks' TestClock, each driving the same swift-async-algorithms workloads. A package of
// its own, so that pipesh's build and test suite never compile swift-clocks.
// SwiftPM names a package met by its path after its folder: the clone's, whatever it is called.
let pipesh = String(Context.packageDirectory.split(separator: "/").dropLast(2).last ?? "pipesh")

let package = Package(
  name: "ClockPeers",
  dependencies: [
    .package(path: "../.."),
    .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", exact: "1.1.1"),
  ],
  targets: [
    .executableTarget(
      name: "ClockPeers",
      dependencies: [
        .product(name: "MarbleTesting", package: pipesh),
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        .product(name: "Clocks", package: "swift-clocks"),
      ]
    )
  ],
  swiftLanguageModes: [.v6]
)
