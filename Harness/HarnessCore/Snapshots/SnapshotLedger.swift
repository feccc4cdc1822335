import Foundation
import HarnessSystem

/// What a run did with its snapshot references, kept in its artifacts folder as JSON lines
/// (`<artifacts>/snapshot-ledger.jsonl`), so that `harness snapshots` can tell the references
/// no flow or test uses any more and accept the actual snapshots a failed run left.
///
/// Two kinds of line:
/// - `snapshot`: one per snapshot comparison, written by ``SnapshotVerifier`` (so by flows and by
///   Swift tests alike): the reference, its companions (the SVG), its owner (the flow, or the
///   Swift test's file and function), how it ended (`matched`, `recorded` or `failed`) and, for
///   a failure, where the actual snapshot was left;
/// - `ran`: one per flow or Swift test that a runner (`harness run`, `harness swift-test`) ran,
///   written when it finished: its owner, the folder of its references and whether it passed.
///
/// Each line is appended with one `write(2)` to a file opened with `O_APPEND`, so flows running
/// in parallel and test processes running side by side never mix their lines. `harness run`
/// and `harness swift-test` empty the file when they start, so that it describes their run.
package enum SnapshotLedger {
    /// The file's name in the artifacts folder.
    package static let fileName = "snapshot-ledger.jsonl"

    /// The ledger of the artifacts folder `folder`.
    package static func file(inArtifacts folder: URL) -> URL {
        folder.appendingPathComponent(fileName)
    }

    /// Who owns a reference: a flow (its file, its name, its path in the run) or a Swift test
    /// (its source file and function name, and its identity when Swift Testing runs it).
    package struct Owner: Codable, Sendable, Hashable {
        /// The flow file, or the Swift test's source file (absolute).
        package var file: String
        /// The flow's name, or the test function's name without its parameters.
        package var function: String
        /// The flow's relative path in its run, or the Swift Testing test's id.
        package var label: String?

        package init(file: String, function: String, label: String? = nil) {
            (self.file, self.function, self.label) = (file, function, label)
        }
    }

    /// How a comparison ended.
    package enum Outcome: String, Codable, Sendable {
        /// The snapshot matched its reference.
        case matched
        /// The reference was written (it was missing, or the record mode rewrote it).
        case recorded
        /// The snapshot did not match (or its reference was missing and not recorded); the
        /// entry's `actual` says where the actual snapshot was left.
        case failed
    }

    /// A companion file of a reference (the SVG beside a screen's text) and its actual copy.
    package struct Companion: Codable, Sendable, Hashable {
        package var reference: String
        package var actual: String?

        package init(reference: String, actual: String?) {
            (self.reference, self.actual) = (reference, actual)
        }
    }

    /// One line of the ledger.
    package struct Entry: Codable, Sendable {
        /// The two kinds of line.
        package enum Kind: String, Codable, Sendable {
            case snapshot, ran
        }

        package var kind: Kind
        /// Seconds since 1970 when it was written (later entries win when a reference was
        /// compared more than once).
        package var time: Double
        package var owner: Owner
        /// `snapshot`: the reference file (absolute).
        package var reference: String?
        /// `snapshot`: how it ended.
        package var outcome: Outcome?
        /// `snapshot`, failed: the actual snapshot left in the artifacts folder.
        package var actual: String?
        /// `snapshot`: the companion files.
        package var companions: [Companion]?
        /// `ran`: the folder of the owner's references (`<dir>/__Snapshots__/<name>`).
        package var folder: String?
        /// `ran`: whether it passed (a flaky flow's last attempt passed).
        package var passed: Bool?

        /// A comparison of `reference`.
        package static func snapshot(_ reference: String, owner: Owner, outcome: Outcome, actual: String?,
                                     companions: [Companion]) -> Entry {
            Entry(kind: .snapshot, time: Date().timeIntervalSince1970, owner: owner, reference: reference, outcome: outcome,
                  actual: actual, companions: companions.isEmpty ? nil : companions)
        }

        /// A flow or test that ran, whose references are in `folder`.
        package static func ran(_ owner: Owner, folder: String, passed: Bool) -> Entry {
            Entry(kind: .ran, time: Date().timeIntervalSince1970, owner: owner, folder: folder, passed: passed)
        }
    }

    /// Appends `entry` to the ledger of the artifacts folder `folder` (created when needed).
    /// - Throws: ``SnapshotError/writeFailed(path:reason:)``.
    package static func append(_ entry: Entry, inArtifacts folder: URL) throws(SnapshotError) {
        try append([entry], inArtifacts: folder)
    }

    /// Appends `entries`, one line each.
    package static func append(_ entries: [Entry], inArtifacts folder: URL) throws(SnapshotError) {
        guard !entries.isEmpty else { return }
        let file = file(inArtifacts: folder)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let descriptor = try Posix.openForAppending(file.path)
            defer { Posix.closeIgnoringErrors(descriptor) }
            for entry in entries {
                let line = Array(try encoder.encode(entry) + Data("\n".utf8))
                var offset = 0
                while offset < line.count {
                    guard let written = try Posix.write(descriptor, bytes: line, from: offset), written > 0 else {
                        throw SnapshotError.writeFailed(path: file.path, reason: "the file takes no more bytes")
                    }
                    offset += written
                }
            }
        } catch let error as SnapshotError {
            throw error
        } catch {
            throw SnapshotError.writeFailed(path: file.path, reason: "\(error)")
        }
    }

    /// The entries of the artifacts folder `folder`'s ledger, in the order written; nil when it
    /// has none. Lines that are not entries (a line cut short by a crash) are left out.
    package static func entries(inArtifacts folder: URL) -> [Entry]? {
        guard let data = FileManager.default.contents(atPath: file(inArtifacts: folder).path) else { return nil }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(Entry.self, from: Data($0)) }
    }

    /// Starts the ledger of the artifacts folder `folder` afresh, empty (a runner starting a
    /// run: an empty ledger says that the run compared nothing).
    package static func reset(inArtifacts folder: URL) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? Data().write(to: file(inArtifacts: folder))
    }
}
