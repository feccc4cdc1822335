import Foundation

/// Where the harness leaves files for a failed test to be examined: the actual snapshots (text
/// and SVG), and whatever else a failure wants to keep.
///
/// The folder is `HARNESS_ARTIFACTS` when set, otherwise `.build/harness-artifacts` in the
/// package holding the test file (the nearest folder above it with a `Package.swift`).
public enum HarnessArtifacts {
    /// The environment variable naming the artifacts folder.
    package static let environmentVariable = "HARNESS_ARTIFACTS"

    /// The artifacts folder for tests in `testFile`.
    public static func directory(
        forTestFile testFile: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if let override = environment[environmentVariable], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true).standardizedFileURL
        }
        if let root = packageRoot(containing: testFile) {
            return root.appendingPathComponent(".build/harness-artifacts", isDirectory: true)
        }
        return FileManager.default.temporaryDirectory.appendingPathComponent("harness-artifacts", isDirectory: true)
    }

    /// The nearest folder at or above `path`'s folder that holds a `Package.swift`, or `nil`.
    package static func packageRoot(containing path: String) -> URL? {
        var folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent()
        while true {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path || folder.path == "/" { return nil }
            folder = parent
        }
    }

    /// One file the harness keeps for a failed test: its name in the test's artifacts folder
    /// (`screen.txt`, `screen.svg`, `recording.cast`, `events.json`) and its bytes. The same
    /// values are written to the folder and attached to the test (`swift test --attachments-path`).
    package struct File: Sendable, Equatable {
        /// The file's name, with its extension.
        public let name: String
        /// The file's contents.
        public let contents: Data

        package init(name: String, contents: Data) {
            (self.name, self.contents) = (name, contents)
        }

        /// The contents as UTF-8 text.
        public var text: String { String(decoding: contents, as: UTF8.self) }
    }

    /// Writes `files` into `folder` (created if needed) and returns the folder.
    @discardableResult
    package static func write(_ files: [File], to folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files {
            try file.contents.write(to: folder.appendingPathComponent(file.name))
        }
        return folder
    }

    /// Writes a failed test's `files` to its folder (``folder(forTestFile:function:environment:)``,
    /// saying where on standard error) and attaches them to the test when `hooks` can, each
    /// named `<TestFile>.<test>.NAME`.
    package static func keep(_ files: [File], filePath: String, function: String, hooks: (any TestFrameworkHooks)?) {
        let folder = folder(forTestFile: filePath, function: function)
        if let written = try? write(files, to: folder) {
            FileHandle.standardError.write(Data("harness: the failed test's recording and screen are in \(written.path)\n".utf8))
        }
        hooks?.attach(files, prefix: testFileName(filePath) + "." + testName(function))
    }

    /// The folder of one test's failure artifacts: `<artifacts>/<TestFile>/<test>/`, where
    /// `<TestFile>` is `filePath`'s base name and `<test>` is `function` up to its `(`.
    package static func folder(
        forTestFile filePath: String,
        function: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        directory(forTestFile: filePath, environment: environment)
            .appendingPathComponent(testFileName(filePath), isDirectory: true)
            .appendingPathComponent(testName(function), isDirectory: true)
    }

    /// `filePath`'s base name without its extension: `Tests/AppTests/ScreenTests.swift` is
    /// `ScreenTests`.
    static func testFileName(_ filePath: String) -> String {
        URL(fileURLWithPath: filePath).deletingPathExtension().lastPathComponent
    }

    /// A test function's name without its parameters: `loads(_:)` is `loads`.
    static func testName(_ function: String) -> String {
        String(function.prefix { $0 != "(" })
    }

    /// Where to keep a copy of `file` in `artifacts`: its path relative to `packageRoot` when it
    /// is inside it (so the copy mirrors the source tree), otherwise its last `keeping` path
    /// components.
    static func mirror(_ file: URL, packageRoot: URL?, in artifacts: URL, keeping: Int = 2) -> URL {
        let path = file.standardizedFileURL.path
        if let root = packageRoot?.standardizedFileURL.path, path.hasPrefix(root + "/") {
            return artifacts.appendingPathComponent(String(path.dropFirst(root.count + 1)))
        }
        let tail = file.standardizedFileURL.pathComponents.suffix(keeping).joined(separator: "/")
        return artifacts.appendingPathComponent(tail)
    }
}
