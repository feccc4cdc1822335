// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TerminalHarness",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "todo", targets: ["todo"]),
        .library(name: "TodoCore", targets: ["TodoCore"]),
        .library(name: "Harness", targets: ["Harness"]),
    ],
    targets: [
        // The sample app under test.
        .target(name: "TodoCore", path: "Sources/TodoCore"),
        .executableTarget(name: "todo", dependencies: ["TodoCore"], path: "Sources/todo"),

        // The test side.
        .target(name: "Harness", path: "Harness/Harness"),

        // Tests.
        .testTarget(name: "TodoCoreTests", dependencies: ["TodoCore", "Harness"]),
        .testTarget(name: "TodoAppTests", dependencies: ["TodoCore", "todo"]),
        .testTarget(name: "HarnessTests", dependencies: ["Harness"]),
        .testTarget(name: "FlowTests", dependencies: ["Harness"]),
    ]
)
