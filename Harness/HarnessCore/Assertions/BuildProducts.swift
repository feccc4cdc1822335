import Foundation

/// Finds executables built by SwiftPM next to the running tests (`.build/debug/todo` and the like).
public enum BuildProducts {
    /// The folder holding the products of the current build.
    ///
    /// On Linux the test bundle is itself an executable in that folder; on macOS it is a
    /// `.xctest` bundle in it. `HARNESS_PRODUCTS_DIR` overrides both.
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["HARNESS_PRODUCTS_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        var folder = executable.resolvingSymlinksInPath().deletingLastPathComponent()
        // Inside a macOS bundle: .../X.xctest/Contents/MacOS/X
        while folder.path.contains(".xctest") { folder.deleteLastPathComponent() }
        return folder
    }

    /// The built executable called `name`, or an error naming where it was looked for.
    public static func executable(named name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw BuildProductError.missing(name: name, lookedIn: directory.path)
        }
        return url
    }
}

/// A product that was not built.
package enum BuildProductError: Error, CustomStringConvertible {
    /// No executable `name` in the products folder.
    case missing(name: String, lookedIn: String)

    public var description: String {
        switch self {
        case .missing(let name, let folder):
            "no built executable '\(name)' in \(folder); run `swift build` first (or set HARNESS_PRODUCTS_DIR)"
        }
    }
}
