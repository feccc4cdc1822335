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
        .library(name: "HarnessCore", targets: ["HarnessCore"]),
        .library(name: "HarnessFlows", targets: ["HarnessFlows"]),
        .library(name: "HarnessSteps", targets: ["HarnessSteps"]),
        .library(name: "HarnessFlowCases", targets: ["HarnessFlowCases"]),
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

        // The system layer (not a product): every libc call of the harness, the wire and the stubs.
        .target(name: "CHarnessSystem", path: "Harness/CHarnessSystem"),
        .target(name: "HarnessSystem", dependencies: ["CHarnessSystem"], path: "Harness/HarnessSystem"),

        // The test side.
        .target(name: "TerminalEmulator", path: "Harness/TerminalEmulator"),
        .target(name: "HarnessWire", dependencies: ["HarnessSystem"], path: "Harness/HarnessWire"),
        .target(name: "HarnessHost", dependencies: ["HarnessSystem", "HarnessWire"], path: "Harness/HarnessHost"),
        // The library split by role (docs/ARCHITECTURE.md): HarnessCore drives sessions and links
        // no test framework; HarnessSteps is the step engine beneath every front end (step
        // values, the one runner, results, traces); Harness adds the assertions that report
        // through Swift Testing and XCTest (and re-exports the core, so tests need only
        // `import Harness`); HarnessFlows is the flow language and the reports, for the CLI;
        // HarnessFlowCases runs `.flow` files as Swift test cases (both a test framework and
        // the flow grammar, which neither Harness nor the CLI should carry).
        .target(name: "HarnessCore", dependencies: ["HarnessSystem", "TerminalEmulator", "HarnessWire"], path: "Harness/HarnessCore"),
        .target(name: "Harness", dependencies: ["HarnessCore", "HarnessSteps", "HarnessSystem", "TerminalEmulator", "HarnessWire"], path: "Harness/Harness"),
        .target(name: "HarnessSteps", dependencies: ["HarnessCore", "HarnessSystem", "TerminalEmulator", "HarnessWire"], path: "Harness/HarnessSteps"),
        .target(name: "HarnessFlowCases", dependencies: ["Harness", "HarnessFlows", "HarnessSteps", "HarnessCore"], path: "Harness/HarnessFlowCases"),
        .target(name: "HarnessFlows", dependencies: ["HarnessSteps", "HarnessCore", "HarnessSystem", "Stubs", "TerminalEmulator", "HarnessWire"], path: "Harness/HarnessFlows"),
        // `todo` is listed so that `swift run harness run Tests/Flows` builds the app the bundled
        // flows drive (SwiftPM builds an executable dependency without linking its code).
        .executableTarget(
            name: "harness",
            dependencies: ["HarnessFlows", "HarnessSteps", "HarnessCore", "HarnessSystem", "Stubs", "TerminalEmulator", "todo"],
            path: "Harness/harness-cli"
        ),

        // Doubles for the outside world.
        .target(name: "Stubs", dependencies: ["HarnessSystem"], path: "Stubs/Stubs"),
        .executableTarget(name: "stub-server", dependencies: ["Stubs", "HarnessSystem"], path: "Stubs/stub-server"),

        // Benchmarks: programs that print figures next to their peers' (see docs/PERFORMANCE.md).
        .executableTarget(
            name: "EmulatorBenchmark",
            dependencies: ["TerminalEmulator"],
            path: "Benchmarks/EmulatorBenchmark",
            exclude: ["setup.sh", "vterm_driver.c", "pyte_driver.py"]
        ),
        .executableTarget(
            name: "LatencyBenchmark",
            dependencies: ["HarnessCore", "HarnessSystem", "TerminalEmulator"],
            path: "Benchmarks/LatencyBenchmark"
        ),

        .executableTarget(
            name: "FlowBenchmark",
            path: "Benchmarks/FlowBenchmark",
            exclude: ["setup.sh", "peer_stub.py", "todo_flows_pexpect.py", "todo_flows.exp"]
        ),
        .executableTarget(
            name: "StubServerBenchmark",
            dependencies: ["Stubs", "HarnessSystem"],
            path: "Benchmarks/StubServerBenchmark",
            exclude: ["setup.sh", "pytest_httpserver_peer.py"]
        ),

        .executableTarget(
            name: "BridgeBenchmark",
            dependencies: ["HarnessCore", "HarnessHost", "HarnessWire"],
            path: "Benchmarks/BridgeBenchmark",
            exclude: ["setup.sh"]
        ),

        .executableTarget(
            name: "LockBenchmark",
            dependencies: ["HarnessSystem"],
            path: "Benchmarks/LockBenchmark"
        ),

        .executableTarget(
            name: "ShardBalanceBenchmark",
            dependencies: ["HarnessFlows", "HarnessSteps"],
            path: "Benchmarks/ShardBalanceBenchmark"
        ),

        .executableTarget(
            name: "ScaleBenchmark",
            dependencies: ["HarnessCore", "HarnessSystem"],
            path: "Benchmarks/ScaleBenchmark",
            exclude: ["run-all.sh"]
        ),

        .executableTarget(name: "AgentBenchmark", path: "Benchmarks/AgentBenchmark"),

        .executableTarget(
            name: "PictureBenchmark",
            dependencies: ["HarnessCore", "HarnessSystem"],
            path: "Benchmarks/PictureBenchmark"
        ),

        .executableTarget(
            name: "AcceptanceBenchmark",
            dependencies: ["HarnessCore", "Stubs", "TerminalEmulator"],
            path: "Benchmarks/AcceptanceBenchmark",
            exclude: ["setup.sh", "four_tests_pexpect.py", "four_tests.exp"]
        ),

        // Tests.
        // What the test targets share: temporary folders, the test environment, running programs.
        .target(name: "TestSupport", dependencies: ["HarnessCore", "HarnessSystem", "TerminalEmulator"], path: "Tests/TestSupport"),
        .executableTarget(name: "bridge-fixture-app", dependencies: ["HarnessHost"], path: "Tests/Fixtures/BridgeFixtureApp"),
        .executableTarget(name: "stub-threads-fixture", dependencies: ["Stubs", "HarnessSystem"], path: "Tests/Fixtures/StubThreadsFixture"),
        .testTarget(name: "TodoCoreTests", dependencies: ["TodoCore", "Harness", "TestSupport"]),
        .testTarget(name: "TodoAppTests", dependencies: ["TodoCore", "todo", "Harness", "TestSupport"]),
        .testTarget(name: "TerminalEmulatorTests", dependencies: ["TerminalEmulator", "HarnessSystem"], exclude: ["Fixtures"]),
        .testTarget(name: "HarnessSystemTests", dependencies: ["HarnessSystem"]),
        .testTarget(name: "HarnessTests", dependencies: ["Harness", "HarnessFlowCases", "HarnessFlows", "HarnessCore", "HarnessSystem", "TerminalEmulator", "TestSupport"]),
        .testTarget(name: "SnapshotTests", dependencies: ["Harness", "HarnessCore", "TerminalEmulator", "TestSupport"], exclude: ["__Snapshots__"]),
        .testTarget(name: "FlowTests", dependencies: ["HarnessFlows", "HarnessSteps", "HarnessCore", "Harness", "HarnessSystem", "TerminalEmulator", "TestSupport"]),
        .testTarget(name: "HarnessCLITests", dependencies: ["HarnessFlows", "HarnessSteps", "Harness", "Stubs", "harness", "HarnessSystem", "HarnessWire", "TerminalEmulator", "TestSupport"]),
        .testTarget(name: "HarnessWireTests", dependencies: ["HarnessWire"]),
        .testTarget(name: "HarnessHostTests", dependencies: ["HarnessHost", "HarnessWire"]),
        .testTarget(name: "BridgeTests", dependencies: ["Harness", "HarnessCore", "HarnessHost", "HarnessWire", "bridge-fixture-app", "TestSupport"]),
        .testTarget(
            name: "TodoAcceptanceTests",
            // HarnessHost, TerminalEmulator and TestSupport for the docs' examples
            // (ReadmeExamplesTests, DocsExamplesTests); `harness` runs the README's flow.
            dependencies: ["Harness", "HarnessFlows", "HarnessFlowCases", "HarnessHost", "HarnessSystem", "Stubs", "TerminalEmulator", "TestSupport",
                           "TodoCore", "todo", "harness"],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "StubsTests",
            // stub-threads-fixture: the process StubServerThreadCountTests counts the threads of.
            dependencies: ["Stubs", "TodoCore", "Harness", "HarnessSystem", "TestSupport", "stub-threads-fixture"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
