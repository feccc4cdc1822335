// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Stubs",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Stubs", targets: ["Stubs"]),
        .executable(name: "stub-server", targets: ["stub-server"]),
        .executable(name: "StubServerBenchmark", targets: ["StubServerBenchmark"]),
    ],
    targets: [
        .target(name: "StubsCShims", path: "Stubs/StubsCShims"),
        .target(name: "Stubs", dependencies: ["StubsCShims"], path: "Stubs/Stubs"),
        .executableTarget(name: "stub-server", dependencies: ["Stubs"], path: "Stubs/stub-server"),
        .executableTarget(
            name: "StubServerBenchmark",
            dependencies: ["Stubs"],
            path: "Benchmarks/StubServerBenchmark",
            exclude: ["setup.sh", "pytest_httpserver_peer.py"]
        ),
        .testTarget(
            name: "StubsTests",
            dependencies: ["Stubs"],
            path: "Tests/StubsTests",
            exclude: ["TodoAPIAgainstStubTests.swift.pending", "Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
