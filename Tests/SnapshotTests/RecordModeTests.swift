import Foundation
import Harness
@testable import HarnessCore
import TestSupport
import Testing

@Suite struct RecordModeTests {
    // MARK: - From the environment

    @Test func theModeComesFromHarnessRecordThenCI() throws {
        #expect(try SnapshotRecordMode.fromEnvironment([:]) == .missing)
        #expect(try SnapshotRecordMode.fromEnvironment(["CI": "true"]) == .never)
        #expect(try SnapshotRecordMode.fromEnvironment(["CI": "1", "HARNESS_RECORD": "failed"]) == .failed)
        #expect(try SnapshotRecordMode.fromEnvironment(["HARNESS_RECORD": ""]) == .missing)
        for mode in SnapshotRecordMode.allCases {
            #expect(try SnapshotRecordMode.fromEnvironment(["HARNESS_RECORD": mode.description.uppercased()]) == mode)
        }
    }

    @Test func anUnknownModeIsAClearError() {
        #expect(throws: SnapshotError.invalidRecordMode("sometimes")) {
            try SnapshotRecordMode.fromEnvironment(["HARNESS_RECORD": "sometimes"])
        }
        #expect(SnapshotError.invalidRecordMode("x").description.contains("missing, all, failed or never"))
    }

    // MARK: - Missing reference

    @Test(arguments: [SnapshotRecordMode.missing, .failed, .all])
    func aMissingReferenceIsRecordedAndTheAssertionFails(mode: SnapshotRecordMode) throws {
        try withTemporaryDirectory { folder in
            let references = folder.appendingPathComponent("refs")
            let message = verifySnapshot(of: "hello\nworld", as: .lines, named: "greeting", record: mode,
                                         snapshotDirectory: references, artifactsDirectory: folder.appendingPathComponent("artifacts"))
            let file = references.appendingPathComponent("aMissingReferenceIsRecordedAndTheAssertionFails.greeting.txt")
            #expect(message?.contains("No reference snapshot") == true)
            #expect(message?.contains(file.path) == true)
            #expect(contents(of: file) == "hello\nworld\n")
            // The next run with the same value passes (except in 'all', which always fails).
            let again = verifySnapshot(of: "hello\nworld", as: .lines, named: "greeting", record: mode, snapshotDirectory: references)
            #expect((again == nil) == (mode != .all))
        }
    }

    @Test func neverModeDoesNotRecordAMissingReferenceAndSaysSo() throws {
        try withTemporaryDirectory { folder in
            let references = folder.appendingPathComponent("refs")
            let artifacts = folder.appendingPathComponent("artifacts")
            let message = try #require(verifySnapshot(of: "x", as: .lines, named: "n", record: .never,
                                                      snapshotDirectory: references, artifactsDirectory: artifacts))
            #expect(message.contains("No reference snapshot"))
            #expect(message.contains("'never' does not record"))
            #expect(fileNames(in: references).isEmpty)
            // The actual snapshot is kept as an artifact so it can be looked at.
            #expect(contents(of: artifacts.appendingPathComponent("refs/neverModeDoesNotRecordAMissingReferenceAndSaysSo.n.txt")) == "x\n")
        }
    }

    // MARK: - Mismatch

    @Test(arguments: SnapshotRecordMode.allCases)
    func aMismatchFailsWithADiffInEveryMode(mode: SnapshotRecordMode) throws {
        try withTemporaryDirectory { folder in
            let references = folder.appendingPathComponent("refs")
            let artifacts = folder.appendingPathComponent("artifacts")
            let file = references.appendingPathComponent("aMismatchFailsWithADiffInEveryMode.v.txt")
            try FileManager.default.createDirectory(at: references, withIntermediateDirectories: true)
            try Data("one\ntwo\nthree\n".utf8).write(to: file)

            let message = try #require(verifySnapshot(of: "one\n2\nthree", as: .lines, named: "v", record: mode,
                                                      snapshotDirectory: references, artifactsDirectory: artifacts))
            #expect(message.contains("@@ -1,3 +1,3 @@\n one\n-two\n+2\n three"))
            let rewritten = mode == .failed || mode == .all
            #expect(contents(of: file) == (rewritten ? "one\n2\nthree\n" : "one\ntwo\nthree\n"))
            if mode != .all {
                let artifact = artifacts.appendingPathComponent("refs/aMismatchFailsWithADiffInEveryMode.v.txt")
                #expect(contents(of: artifact) == "one\n2\nthree\n")
                #expect(message.contains(artifact.path))
            }
        }
    }

    @Test func aMatchPassesAndWritesNothing() throws {
        try withTemporaryDirectory { folder in
            let references = folder.appendingPathComponent("refs")
            let artifacts = folder.appendingPathComponent("artifacts")
            let file = references.appendingPathComponent("aMatchPassesAndWritesNothing.same.txt")
            try FileManager.default.createDirectory(at: references, withIntermediateDirectories: true)
            try Data("same\n".utf8).write(to: file)
            for mode in [SnapshotRecordMode.missing, .failed, .never] {
                #expect(verifySnapshot(of: "same", as: .lines, named: "same", record: mode,
                                       snapshotDirectory: references, artifactsDirectory: artifacts) == nil)
            }
            // Nothing but the snapshot ledger, which says they matched (docs/SNAPSHOTS.md, "Lifecycle").
            #expect(fileNames(in: artifacts) == [SnapshotLedger.fileName])
            #expect(SnapshotLedger.entries(inArtifacts: artifacts)?.map(\.outcome) == [.matched, .matched, .matched])
        }
    }

    @Test func allModeRecordsEvenAMatchAndFails() throws {
        try withTemporaryDirectory { folder in
            let references = folder.appendingPathComponent("refs")
            #expect(verifySnapshot(of: "v1", as: .lines, named: "a", record: .missing, snapshotDirectory: references) != nil)
            let message = try #require(verifySnapshot(of: "v1", as: .lines, named: "a", record: .all, snapshotDirectory: references))
            #expect(message.contains("Record mode 'all'"))
            #expect(message.contains("It did not change."))
        }
    }

    // MARK: - Names

    @Test func unnamedSnapshotsAreNumberedInOrder() throws {
        try withTemporaryDirectory { folder in
            _ = verifySnapshot(of: "first", as: .lines, record: .missing, snapshotDirectory: folder)
            _ = verifySnapshot(of: "second", as: .lines, record: .missing, snapshotDirectory: folder)
            _ = verifySnapshot(of: "named", as: .lines, named: "x y/z", record: .missing, snapshotDirectory: folder)
            #expect(fileNames(in: folder) == [
                "unnamedSnapshotsAreNumberedInOrder.1.txt",
                "unnamedSnapshotsAreNumberedInOrder.2.txt",
                "unnamedSnapshotsAreNumberedInOrder.x-y-z.txt",
            ])
            #expect(contents(of: folder.appendingPathComponent("unnamedSnapshotsAreNumberedInOrder.2.txt")) == "second\n")
        }
    }

    @Test(arguments: [1, 2])
    func parameterizedTestsMustNameTheirSnapshots(case number: Int) throws {
        try withTemporaryDirectory { folder in
            let message = verifySnapshot(of: "\(number)", as: .lines, record: .missing, snapshotDirectory: folder)
            #expect(message?.contains("needs a name (named:)") == true)
            #expect(fileNames(in: folder).isEmpty)
            #expect(verifySnapshot(of: "\(number)", as: .lines, named: "case\(number)", record: .missing, snapshotDirectory: folder) != nil)
            #expect(fileNames(in: folder) == ["parameterizedTestsMustNameTheirSnapshots.case\(number).txt"])
        }
    }

    @Test func theDefaultFolderIsSnapshotsBesideTheTestFileAndArtifactsMirrorIt() throws {
        try withTemporaryDirectory { folder in
            let testFile = folder.appendingPathComponent("Tests/AppTests/LoginTests.swift")
            try FileManager.default.createDirectory(at: testFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("// Package".utf8).write(to: folder.appendingPathComponent("Package.swift"))
            let verifier = SnapshotVerifier(
                filePath: testFile.path, function: "logsIn(user:)", name: "start", record: .never,
                snapshotDirectory: nil, artifactsDirectory: nil, environment: [:]
            )
            let message = verifier.verify("a", as: .lines)
            let reference = folder.appendingPathComponent("Tests/AppTests/__Snapshots__/LoginTests/logsIn.start.txt")
            let artifact = folder.appendingPathComponent(".build/harness-artifacts/Tests/AppTests/__Snapshots__/LoginTests/logsIn.start.txt")
            #expect(message?.contains(reference.path) == true)
            #expect(message?.contains(artifact.path) == true)
            #expect(contents(of: artifact) == "a\n")

            // HARNESS_ARTIFACTS moves the artifacts, keeping the mirrored path.
            var moved = verifier
            moved.environment = ["HARNESS_ARTIFACTS": folder.appendingPathComponent("out").path]
            _ = moved.verify("b", as: .lines)
            let movedArtifact = folder.appendingPathComponent("out/Tests/AppTests/__Snapshots__/LoginTests/logsIn.start.txt")
            #expect(contents(of: movedArtifact) == "b\n")

            // With the default mode from the environment, CI means never.
            var onCI = verifier
            onCI.record = nil
            onCI.environment = ["CI": "true"]
            #expect(onCI.verify("c", as: .lines)?.contains("'never' does not record") == true)
            onCI.environment = [:]
            #expect(onCI.verify("c", as: .lines)?.contains("recorded it (record mode 'missing')") == true)
            #expect(contents(of: reference) == "c\n")
        }
    }
}
