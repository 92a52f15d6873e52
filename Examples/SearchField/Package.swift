// swift-tools-version: 6.2
import PackageDescription

// A search field's view model on swift-async-algorithms, its sequences probed with PipeshProbe and
// tested with MarbleTesting, both from the pipesh package two folders up.
let package = Package(
  name: "SearchField",
  platforms: [.macOS(.v15)],
  products: [.library(name: "SearchField", targets: ["SearchField"])],
  dependencies: [
    .package(name: "pipesh", path: "../.."),
    .package(url: "https://github.com/apple/swift-async-algorithms", exact: "1.1.4"),
  ],
  targets: [
    .target(
      name: "SearchField",
      dependencies: [
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
        .product(name: "PipeshProbe", package: "pipesh"),
      ]),
    .testTarget(
      name: "SearchFieldTests",
      dependencies: ["SearchField", .product(name: "MarbleTesting", package: "pipesh")]),
  ],
  swiftLanguageModes: [.v6]
)
