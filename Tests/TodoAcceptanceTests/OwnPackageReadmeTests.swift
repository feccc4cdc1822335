import Foundation
import Testing
import TestSupport
import Harness

/// README.md's "Use it in your own package": its manifest names products this package has,
/// makes the test target depend on the executable and names none of this package's targets.
/// (`Scripts/own-package-check.sh` builds that manifest in a package of its own and runs the
/// section's test there.)
@Suite struct OwnPackageReadmeTests {
    static let title = "Use it in your own package"

    static func blocks() throws -> [DocumentedExample] {
        let readme = try DocumentedExamples.read("README.md", fromTestFile: #filePath)
        return DocumentedExamples.blocks(in: readme, document: "README.md", language: "swift", section: title)
    }

    /// This package's manifest.
    static func ourManifest() throws -> String {
        try String(contentsOf: DocumentedExamples.packageRoot(fromTestFile: #filePath).appendingPathComponent("Package.swift"), encoding: .utf8)
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
        let ours = try Self.ourManifest()
        let libraries = Set(try Self.names(#"\.library\(name: "([^"]+)""#, in: ours))
        let used = try Self.names(#"\.product\(name: "([^"]+)", package: "TerminalHarness"\)"#, in: manifest)
        #expect(Set(used) == ["Harness", "HarnessFlowCases", "Stubs", "HarnessHost"], "\(used)")
        #expect(Set(used).isSubset(of: libraries), "not products of this package: \(Set(used).subtracting(libraries))")
        #expect(manifest.contains(#".package(url: "https://github.com/you/TerminalHarness.git""#), "the package's identity is TerminalHarness")
        // The test target depends on the executable, which this package builds under that name.
        let executable = try #require(try Self.names(#"\.executableTarget\(name: "([^"]+)""#, in: manifest).first)
        let testTarget = try #require(manifest.range(of: ".testTarget(")).lowerBound
        #expect(manifest[testTarget...].contains("\"\(executable)\","), "the test target does not depend on \(executable)")
    }

    /// SwiftPM wants target names unique across the package graph: a user's target named as one
    /// of ours stops the build. The section names some of ours; they are ours.
    @Test func theManifestsTargetsAreNotThisPackagesTargets() throws {
        let section = try DocumentedExamples.read("README.md", fromTestFile: #filePath)
            .components(separatedBy: "## \(Self.title)").last?.components(separatedBy: "\n## ").first ?? ""
        let manifest = try #require(try Self.blocks().first).text
        let target = #"\.(?:target|executableTarget|testTarget)\(\s*name: "([^"]+)""#
        let ours = Set(try Self.names(target, in: try Self.ourManifest()))
        let theirs = try Self.names(target, in: manifest)
        #expect(theirs.count == 2, "\(theirs)")
        #expect(Set(theirs).isDisjoint(with: ours), "targets of this package too: \(Set(theirs).intersection(ours))")
        for named in ["todo", "TodoCore", "harness", "TestSupport"] {
            #expect(section.contains("`\(named)`") && ours.contains(named), "\(named)")
        }
    }

    /// `${HARNESS_PRODUCTS_DIR}` is the folder `BuildProducts` finds the executable in.
    @Test func theProductsFolderIsWhereTheExecutableIs() throws {
        let executable = try BuildProducts.executable(named: "todo")
        #expect(executable.deletingLastPathComponent().standardizedFileURL == BuildProducts.directory.standardizedFileURL)
    }
}
