// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TerminalHarness",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "TerminalEmulator", targets: ["TerminalEmulator"]),
        .executable(name: "harness", targets: ["harness"]),
        .executable(name: "EmulatorBenchmark", targets: ["EmulatorBenchmark"]),
    ],
    targets: [
        .target(name: "TerminalEmulator", path: "Harness/TerminalEmulator"),
        .executableTarget(name: "harness", dependencies: ["TerminalEmulator"], path: "Harness/harness"),
        .executableTarget(
            name: "EmulatorBenchmark",
            dependencies: ["TerminalEmulator"],
            path: "Benchmarks/EmulatorBenchmark",
            exclude: ["setup.sh", "vterm_driver.c", "pyte_driver.py"]
        ),
        .testTarget(
            name: "TerminalEmulatorTests",
            dependencies: ["TerminalEmulator"],
            path: "Tests/TerminalEmulatorTests",
            exclude: ["Fixtures"]
        ),
        .testTarget(name: "HarnessCLITests", dependencies: ["harness"], path: "Tests/HarnessCLITests"),
    ],
    swiftLanguageModes: [.v6]
)
