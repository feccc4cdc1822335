// swift-tools-version:6.0
// The libFuzzer targets (see Scripts/fuzz.sh and docs/RELIABILITY.md).
//
// A package of its own next to the root one, so that `swift build` and `swift test` at the root
// never build these (they link libFuzzer). It depends on the root package by path, so it follows
// the root's modules wherever their files go, and Scripts/fuzz.sh builds it in release with
// `-sanitize=fuzzer,address` (coverage and AddressSanitizer in every module) and `-enable-testing`
// (the HTTP parser is internal: `@testable import Stubs`). SwiftPM links an executable's own
// `main`, so each program's `main` hands over to libFuzzer's driver (`LLVMFuzzerRunDriver`).
import Foundation
import PackageDescription

// A path dependency's identity is its directory's name, whatever the clone is called.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootPackage = root.lastPathComponent

// The flow parser's module: Harness, or HarnessFlows once the flows have a module of their own.
let flowModule = FileManager.default.fileExists(atPath: root.appendingPathComponent("Harness/HarnessFlows").path)
    ? "HarnessFlows" : "Harness"

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: rootPackage) },
        path: "Sources/\(name)"
    )
}

let package = Package(
    name: "TerminalHarnessFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: root.path)],
    targets: [
        .target(name: "FuzzSupport", swiftSettings: [.enableExperimentalFeature("Extern")]),
        fuzzTarget("fuzz-vt", ["TerminalEmulator"]),
        fuzzTarget("fuzz-http", ["Stubs"]),
        fuzzTarget("fuzz-frame", ["HarnessWire"]),
        fuzzTarget("fuzz-flow", [flowModule]),
    ],
    swiftLanguageModes: [.v6]
)
