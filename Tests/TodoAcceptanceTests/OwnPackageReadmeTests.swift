import Foundation
import Testing
import TestSupport
import Harness

/// README.md's "Use it in your own package": its manifest names products this package has and
/// makes the test target depend on the executable; its test runs here as written.
@Suite struct OwnPackageReadmeTests {
    static let title = "Use it in your own package"

    static func blocks() throws -> [DocumentedExample] {
        let readme = try DocumentedExamples.read("README.md", fromTestFile: #filePath)
        return DocumentedExamples.blocks(in: readme, document: "README.md", language: "swift", section: title)
    }

    /// The names `pattern`'s first capture finds in `text`, in order.
    static func names(_ pattern: String, in text: String) throws -> [String] {
        let regex = try NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test func theManifestNamesThisPackagesProductsAndTheExecutable() throws {
        let blocks = try Self.blocks()
        #expect(blocks.count == 2, "the section has a manifest and a test")
        let manifest = try #require(blocks.first).text
        let ours = try String(contentsOf: DocumentedExamples.packageRoot(fromTestFile: #filePath).appendingPathComponent("Package.swift"),
                              encoding: .utf8)
        let libraries = Set(try Self.names(#"\.library\(name: "([^"]+)""#, in: ours))
        let used = try Self.names(#"\.product\(name: "([^"]+)", package: "TerminalHarness"\)"#, in: manifest)
        #expect(Set(used) == ["Harness", "HarnessFlowCases", "Stubs", "HarnessHost"], "\(used)")
        #expect(Set(used).isSubset(of: libraries), "not products of this package: \(Set(used).subtracting(libraries))")
        #expect(manifest.contains(#".package(url: "https://github.com/you/TerminalHarness.git""#), "the package's identity is TerminalHarness")
        // The test target depends on the executable, which this package builds under that name.
        let executable = try #require(try Self.names(#"\.executableTarget\(name: "([^"]+)""#, in: manifest).first)
        let testTarget = try #require(manifest.range(of: ".testTarget(")).lowerBound
        #expect(manifest[testTarget...].contains("\"\(executable)\","), "the test target does not depend on \(executable)")
        #expect(try Self.names(#"\.executable\(name: "([^"]+)""#, in: ours).contains(executable))
    }

    @Test func theTestIsHereAsWritten() throws {
        let test = try #require(try Self.blocks().last)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        if let failure = DocumentedExamples.verifyMirrored(test, in: source, sourceName: "OwnPackageReadmeTests.swift") {
            Issue.record(Comment(rawValue: failure))
        }
    }

    @Test func printsItsUsage() async throws {
        let launch = AppLaunch(executable: try BuildProducts.executable(named: "todo").path, arguments: ["--help"])
        try await TerminalApp.with(launch) { app in
            try await app.waitFor(text: "Usage: todo")
        }
    }

    /// `${HARNESS_PRODUCTS_DIR}` is the folder `BuildProducts` finds the executable in.
    @Test func theProductsFolderIsWhereTheExecutableIs() throws {
        let executable = try BuildProducts.executable(named: "todo")
        #expect(executable.deletingLastPathComponent().standardizedFileURL == BuildProducts.directory.standardizedFileURL)
    }
}
