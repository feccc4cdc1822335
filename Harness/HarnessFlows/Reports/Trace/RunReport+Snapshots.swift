import Foundation
import HarnessCore
import HarnessSteps

extension RunReport {
    /// This report with the changed snapshots that the run whose artifacts folder is
    /// `artifacts` left in its snapshot ledger (``SnapshotLedger``), each attached to its flow
    /// or test (by its path in the report). `currentDirectory` is where the run ran: paths in
    /// the accept commands are relative to it when inside it.
    public func attachingSnapshotChanges(from artifacts: String, currentDirectory: String) -> RunReport {
        let folder = URL(fileURLWithPath: artifacts, isDirectory: true)
        guard let entries = SnapshotLedger.entries(inArtifacts: folder) else { return self }
        var byPath: [String: [SnapshotChange]] = [:]
        for change in SnapshotReview(ledgers: [entries]).changes {
            guard let label = change.owner.label, let actual = Self.text(at: change.actual) else { continue }
            let svg = { (pick: (SnapshotLedger.Companion) -> String?) in
                change.companions.first { $0.reference.hasSuffix(".svg") }.flatMap(pick).flatMap(Self.text(at:)).map(Self.withoutDeclaration)
            }
            let reference = Self.shown(change.reference, from: currentDirectory)
            let entry = SnapshotChange(
                reference: reference, expected: Self.text(at: change.reference), actual: actual,
                expectedSVG: svg { $0.reference }, actualSVG: svg { $0.actual },
                acceptCommand: "harness snapshots accept --run \(Self.shellQuoted(Self.shown(artifacts, from: currentDirectory))) "
                    + Self.shellQuoted(reference))
            byPath[label, default: []].append(entry)
            let listName = SnapshotLedger.Owner.swiftTestListName(ofStreamID: label)
            if listName != label { byPath[listName, default: []].append(entry) }
        }
        var report = self
        for index in report.flows.indices {
            if let changes = byPath[report.flows[index].path] { report.flows[index].snapshots = changes }
        }
        return report
    }

    private static func text(at path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func withoutDeclaration(_ svg: String) -> String {
        guard svg.hasPrefix("<?xml"), let end = svg.firstIndex(of: "\n") else { return svg }
        return String(svg[svg.index(after: end)...])
    }

    /// `path` relative to `directory` when inside it, else as it is.
    package static func shown(_ path: String, from directory: String) -> String {
        let root = directory.hasSuffix("/") ? directory : directory + "/"
        return path.hasPrefix(root) ? String(path.dropFirst(root.count)) : path
    }

    /// `word` as one shell word: as it is when made of safe characters, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@+,")
        if !word.isEmpty, word.allSatisfy(safe.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
