// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TerminalHarness",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "todo", targets: ["todo"]),
        .executable(name: "harness", targets: ["harness"]),
        .library(name: "TodoCore", targets: ["TodoCore"]),
        .library(name: "Harness", targets: ["Harness"]),
        .library(name: "TerminalEmulator", targets: ["TerminalEmulator"]),
        .library(name: "HarnessWire", targets: ["HarnessWire"]),
        .library(name: "HarnessHost", targets: ["HarnessHost"]),
        .library(name: "Stubs", targets: ["Stubs"]),
        .executable(name: "stub-server", targets: ["stub-server"]),
    ],
    targets: [
        // The sample app under test.
        .target(name: "TodoCore", path: "Sources/TodoCore"),
        .executableTarget(name: "todo", dependencies: ["TodoCore", "HarnessHost"], path: "Sources/todo"),

        // The test side.
        .target(name: "TerminalEmulator", path: "Harness/TerminalEmulator"),
        .target(name: "CHarnessShims", path: "Harness/CHarnessShims"),
        .target(name: "HarnessWire", path: "Harness/HarnessWire"),
        .target(name: "HarnessHost", dependencies: ["HarnessWire"], path: "Harness/HarnessHost"),
        .target(name: "Harness", dependencies: ["CHarnessShims", "TerminalEmulator", "HarnessWire", "Stubs"], path: "Harness/Harness"),
        // `todo` is listed so that `swift run harness run Tests/Flows` builds the app the bundled
        // flows drive (SwiftPM builds an executable dependency without linking its code).
        .executableTarget(name: "harness", dependencies: ["Harness", "Stubs", "TerminalEmulator", "todo"], path: "Harness/harness"),

        // Doubles for the outside world.
        .target(name: "StubsCShims", path: "Stubs/StubsCShims"),
        .target(name: "Stubs", dependencies: ["StubsCShims"], path: "Stubs/Stubs"),
        .executableTarget(name: "stub-server", dependencies: ["Stubs"], path: "Stubs/stub-server"),

        // Benchmarks: programs that print figures next to their peers' (see docs/PERFORMANCE.md).
        .executableTarget(
            name: "EmulatorBenchmark",
            dependencies: ["TerminalEmulator"],
            path: "Benchmarks/EmulatorBenchmark",
            exclude: ["setup.sh", "vterm_driver.c", "pyte_driver.py"]
        ),
        .executableTarget(
            name: "LatencyBenchmark",
            dependencies: ["Harness", "CHarnessShims", "TerminalEmulator"],
            path: "Benchmarks/LatencyBenchmark"
        ),

        .executableTarget(
            name: "FlowBenchmark",
            path: "Benchmarks/FlowBenchmark",
            exclude: ["setup.sh", "peer_stub.py", "todo_flows_pexpect.py", "todo_flows.exp"]
        ),
        .executableTarget(
            name: "StubServerBenchmark",
            dependencies: ["Stubs"],
            path: "Benchmarks/StubServerBenchmark",
            exclude: ["setup.sh", "pytest_httpserver_peer.py"]
        ),

        .executableTarget(
            name: "BridgeBenchmark",
            dependencies: ["Harness", "HarnessHost", "HarnessWire"],
            path: "Benchmarks/BridgeBenchmark",
            exclude: ["setup.sh"]
        ),

        .executableTarget(
            name: "ShardBalanceBenchmark",
            dependencies: ["Harness"],
            path: "Benchmarks/ShardBalanceBenchmark"
        ),

        .executableTarget(
            name: "AcceptanceBenchmark",
            dependencies: ["Harness", "Stubs"],
            path: "Benchmarks/AcceptanceBenchmark",
            exclude: ["setup.sh", "four_tests_pexpect.py", "four_tests.exp"]
        ),

        // Tests.
        .executableTarget(name: "bridge-fixture-app", dependencies: ["HarnessHost"], path: "Tests/Fixtures/BridgeFixtureApp"),
        .testTarget(name: "TodoCoreTests", dependencies: ["TodoCore", "Harness"]),
        .testTarget(name: "TodoAppTests", dependencies: ["TodoCore", "todo", "Harness"]),
        .testTarget(name: "TerminalEmulatorTests", dependencies: ["TerminalEmulator"], exclude: ["Fixtures"]),
        .testTarget(name: "HarnessTests", dependencies: ["Harness"]),
        .testTarget(name: "SnapshotTests", dependencies: ["Harness", "TerminalEmulator"], exclude: ["__Snapshots__"]),
        .testTarget(name: "FlowTests", dependencies: ["Harness"]),
        .testTarget(name: "HarnessCLITests", dependencies: ["Harness", "Stubs", "harness"]),
        .testTarget(name: "HarnessWireTests", dependencies: ["HarnessWire"]),
        .testTarget(name: "HarnessHostTests", dependencies: ["HarnessHost", "HarnessWire"]),
        .testTarget(name: "BridgeTests", dependencies: ["Harness", "HarnessHost", "HarnessWire", "bridge-fixture-app"]),
        .testTarget(
            name: "TodoAcceptanceTests",
            dependencies: ["Harness", "Stubs", "TodoCore", "todo"],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(name: "StubsTests", dependencies: ["Stubs", "TodoCore", "Harness"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
