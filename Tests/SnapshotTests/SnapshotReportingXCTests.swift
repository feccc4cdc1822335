import Foundation
import Harness
import TestSupport
import XCTest

/// Checks that snapshot assertions report through XCTest when XCTest runs the test.
final class SnapshotReportingXCTests: XCTestCase {
    private var recorded: [(description: String, file: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if capturing {
            recorded.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    private func temporaryFolder() throws -> URL {
        let folder = try TemporaryDirectory(prefix: "snapshot-xctests")
        addTeardownBlock { folder.remove() }
        return folder.url
    }

    func testAMismatchIsReportedWithXCTFailAtTheCallersLine() throws {
        let folder = try temporaryFolder()
        XCTAssertNotNil(verifySnapshot(of: "old", as: .lines, named: "x", record: .missing, snapshotDirectory: folder))
        capturing = true
        let line = #line + 1
        assertSnapshot(of: "new", as: .lines, named: "x", record: .never, snapshotDirectory: folder, artifactsDirectory: folder.appendingPathComponent("a"))
        capturing = false
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(recorded.first?.line, line)
        XCTAssertTrue(recorded.first?.file.hasSuffix("SnapshotReportingXCTests.swift") ?? false)
        XCTAssertTrue(recorded.first?.description.contains("-old\n+new") ?? false, "\(recorded)")
    }

    func testUnnamedSnapshotsAreNamedAfterTheTestMethod() throws {
        let folder = try temporaryFolder()
        capturing = true
        assertSnapshot(of: ScreenFixtures.plain(), as: .screen(), record: .missing, snapshotDirectory: folder)
        capturing = false
        XCTAssertEqual(recorded.count, 1)
        XCTAssertEqual(fileNames(in: folder), [
            "testUnnamedSnapshotsAreNamedAfterTheTestMethod.1.svg",
            "testUnnamedSnapshotsAreNamedAfterTheTestMethod.1.txt",
        ])
    }

    func testAMatchReportsNothing() throws {
        let folder = try temporaryFolder()
        XCTAssertNotNil(verifySnapshot(of: 42, as: .dump, named: "n", record: .missing, snapshotDirectory: folder))
        capturing = true
        assertSnapshot(of: 42, as: .dump, named: "n", record: .never, snapshotDirectory: folder)
        capturing = false
        XCTAssertTrue(recorded.isEmpty)
    }
}
