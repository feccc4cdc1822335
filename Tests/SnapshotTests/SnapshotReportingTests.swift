import Foundation
import Harness
import TestSupport
import Testing

@Suite struct SnapshotReportingTests {
    @Test func aFailingAssertionIsReportedAtTheCallersLine() throws {
        try withTemporaryDirectory { folder in
            let expectedLine = #line + 3
            withKnownIssue {
                // A missing reference: recorded, and the assertion fails.
                assertSnapshot(of: "new", as: .lines, named: "r", record: .missing, snapshotDirectory: folder)
            } matching: { issue in
                issue.sourceLocation?.line == expectedLine
                    && issue.sourceLocation?.fileName == "SnapshotReportingTests.swift"
                    && issue.comments.contains { $0.rawValue.contains("No reference snapshot \"aFailingAssertionIsReportedAtTheCallersLine.r\"") }
            }
        }
    }

    @Test func aScreenMismatchIsReportedAtTheCallersLineWithTheDiffAndArtifacts() throws {
        try withTemporaryDirectory { folder in
            let references = folder.appendingPathComponent("refs")
            let artifacts = folder.appendingPathComponent("artifacts")
            #expect(verifySnapshot(of: ScreenFixtures.plain(), as: .screen(), named: "s", record: .missing, snapshotDirectory: references) != nil)
            let changed = ScreenFixtures.colourful()
            let expectedLine = #line + 2
            withKnownIssue {
                assertSnapshot(of: changed, as: .screen(), named: "s", record: .never, snapshotDirectory: references, artifactsDirectory: artifacts)
            } matching: { issue in
                let message = issue.comments.map(\.rawValue).joined()
                return issue.sourceLocation?.line == expectedLine
                    && message.contains("does not match its reference")
                    && message.contains("-│hello       │")
                    && message.contains("refs/aScreenMismatchIsReportedAtTheCallersLineWithTheDiffAndArtifacts.s.svg")
            }
            // The actual text and picture sit in the artifacts folder, mirroring the reference.
            #expect(fileNames(in: artifacts.appendingPathComponent("refs")) == [
                "aScreenMismatchIsReportedAtTheCallersLineWithTheDiffAndArtifacts.s.svg",
                "aScreenMismatchIsReportedAtTheCallersLineWithTheDiffAndArtifacts.s.txt",
            ])
            // The reference is untouched.
            let reference = contents(of: references.appendingPathComponent("aScreenMismatchIsReportedAtTheCallersLineWithTheDiffAndArtifacts.s.txt"))
            #expect(reference == ScreenFixtures.plain().framed() + "\n")
        }
    }

    @Test func aPassingAssertionRecordsNoIssue() throws {
        try withTemporaryDirectory { folder in
            _ = verifySnapshot(of: ["a": 1], as: .json, named: "ok", record: .missing, snapshotDirectory: folder)
            assertSnapshot(of: ["a": 1], as: .json, named: "ok", record: .never, snapshotDirectory: folder)
            #expect(fileNames(in: folder) == ["aPassingAssertionRecordsNoIssue.ok.json"])
        }
    }

    @Test func theSVGIsWrittenWheneverTheTextIsAndRestoredWhenDeleted() throws {
        try withTemporaryDirectory { folder in
            let stem = "theSVGIsWrittenWheneverTheTextIsAndRestoredWhenDeleted.p"
            _ = verifySnapshot(of: ScreenFixtures.plain(), as: .screen(), named: "p", record: .missing, snapshotDirectory: folder)
            #expect(fileNames(in: folder) == ["\(stem).svg", "\(stem).txt"])
            try FileManager.default.removeItem(at: folder.appendingPathComponent("\(stem).svg"))
            // Never mode does not write it back...
            #expect(verifySnapshot(of: ScreenFixtures.plain(), as: .screen(), named: "p", record: .never, snapshotDirectory: folder) == nil)
            #expect(fileNames(in: folder) == ["\(stem).txt"])
            // ...missing mode does, and the assertion still passes.
            #expect(verifySnapshot(of: ScreenFixtures.plain(), as: .screen(), named: "p", record: .missing, snapshotDirectory: folder) == nil)
            #expect(contents(of: folder.appendingPathComponent("\(stem).svg")) == ScreenSVG.render(ScreenFixtures.plain()))
            // Failed mode rewrites both when the screen changed.
            #expect(verifySnapshot(of: ScreenFixtures.colourful(), as: .screen(style: true), named: "p", record: .failed, snapshotDirectory: folder,
                                         artifactsDirectory: folder.appendingPathComponent("artifacts")) != nil)
            #expect(contents(of: folder.appendingPathComponent("\(stem).svg")) == ScreenSVG.render(ScreenFixtures.colourful()))
        }
    }

    @Test func anUnreadableReferenceIsAClearFailure() throws {
        try withTemporaryDirectory { folder in
            try Data([0xFF, 0xFE, 0xFD]).write(to: folder.appendingPathComponent("anUnreadableReferenceIsAClearFailure.b.txt"))
            let message = verifySnapshot(of: "x", as: .lines, named: "b", record: .missing, snapshotDirectory: folder)
            #expect(message?.contains("cannot be decoded") == true)
            #expect(verifySnapshot(of: "x", as: .lines, named: "b", record: .failed, snapshotDirectory: folder)?.contains("recorded it again") == true)
            #expect(verifySnapshot(of: "x", as: .lines, named: "b", record: .never, snapshotDirectory: folder) == nil)
        }
    }

    @Test func anUnwritableFolderIsAClearFailure() throws {
        try withTemporaryDirectory { folder in
            let blocker = folder.appendingPathComponent("file")
            try Data("x".utf8).write(to: blocker)
            let message = verifySnapshot(of: "x", as: .lines, named: "w", record: .missing, snapshotDirectory: blocker.appendingPathComponent("sub"))
            #expect(message?.contains("could not write") == true)
        }
    }
}
