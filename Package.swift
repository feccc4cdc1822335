// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TerminalHarness",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Harness", targets: ["Harness"]),
        .executable(name: "LatencyBenchmark", targets: ["LatencyBenchmark"]),
    ],
    targets: [
        .target(name: "CHarnessShims", path: "Harness/CHarnessShims"),
        // Owned by the emulator helper; present in this worktree only as a symlink while building.
        .target(name: "TerminalEmulator", path: "Harness/TerminalEmulator"),
        .target(name: "Harness", dependencies: ["CHarnessShims", "TerminalEmulator"], path: "Harness/Harness"),
        .executableTarget(
            name: "LatencyBenchmark", dependencies: ["Harness", "CHarnessShims", "TerminalEmulator"],
            path: "Benchmarks/LatencyBenchmark"),
        .testTarget(name: "HarnessTests", dependencies: ["Harness"], path: "Tests/HarnessTests"),
    ],
    swiftLanguageModes: [.v6]
)
