import Foundation

/// A small, predictable environment for programs under test: a short `PATH`, `HOME` in the
/// temporary folder, UTF-8, a plain shell prompt.
public let testEnvironment: [String: String] = [
    "PATH": testPath.joined(separator: ":"),
    "HOME": NSTemporaryDirectory(),
    "LANG": "C.UTF-8",
    "PS1": "$ ",
]

/// The folders of ``testEnvironment``'s `PATH`.
private let testPath = ["/usr/local/bin", "/usr/bin", "/bin"]

/// Whether `name` is a program that ``testEnvironment``'s `PATH` finds (for tests that need
/// `bc`, `python3` and the like, and are skipped without them).
public func isInstalled(_ name: String) -> Bool {
    testPath.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
}

/// The limit of a wait that must succeed: it only catches a hang, so it is long enough that
/// no load ever reaches it (the passing test never waits for it). A check that fails by
/// waiting passes its own short limit instead.
public let mustSucceedTimeout: Duration = .seconds(60)
