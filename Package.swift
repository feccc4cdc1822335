// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TermHarness",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "HarnessWire", targets: ["HarnessWire"]),
        .library(name: "HarnessHost", targets: ["HarnessHost"]),
        .library(name: "Harness", targets: ["Harness"]),
        .executable(name: "BridgeBenchmark", targets: ["BridgeBenchmark"]),
        .executable(name: "bridge-fixture-app", targets: ["bridge-fixture-app"]),
    ],
    targets: [
        .target(name: "HarnessWire", path: "Harness/HarnessWire"),
        .target(name: "HarnessHost", dependencies: ["HarnessWire"], path: "Harness/HarnessHost"),
        .target(name: "Harness", dependencies: ["HarnessWire"], path: "Harness/Harness"),
        .executableTarget(
            name: "bridge-fixture-app",
            dependencies: ["HarnessHost"],
            path: "Tests/Fixtures/BridgeFixtureApp"
        ),
        .executableTarget(
            name: "BridgeBenchmark",
            dependencies: ["Harness", "HarnessHost", "HarnessWire"],
            path: "Benchmarks/BridgeBenchmark",
            exclude: ["setup.sh"]
        ),
        .testTarget(name: "HarnessWireTests", dependencies: ["HarnessWire"]),
        .testTarget(name: "HarnessHostTests", dependencies: ["HarnessHost", "HarnessWire"]),
        .testTarget(
            name: "BridgeTests",
            dependencies: ["Harness", "HarnessHost", "HarnessWire", "bridge-fixture-app"]
        ),
    ]
)
