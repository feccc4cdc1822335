import Foundation
import HarnessCore
import HarnessSteps

/// The snapshot references under some folders, judged by the ledgers of runs
/// (``SnapshotLedger``): which are unused, and which changed snapshots a failed run left to
/// accept. `harness snapshots` prints and acts on it.
///
/// A reference is a file `<D>/__Snapshots__/<S>/<F>.<name>.<ext>`: the references of the flow
/// `<D>/<S>.flow` (whose `<F>` is `<S>`), or of the test function `<F>` in `<D>/<S>.swift`.
/// It is **unused** when no run compared it (nor the reference it is a companion of: the SVG
/// beside a screen's text), and
/// - its owner ran in one of the runs and passed without comparing it: a flow that passes ran
///   every one of its lines, a test that passes ran to its end; or
/// - its owner is gone: neither `<D>/<S>.flow` nor `<D>/<S>.swift` exists.
///
/// Every other reference is **not judged**: its owner did not run (a filtered or sharded run,
/// another test target), failed or was skipped (it may have stopped before the snapshot), or
/// the file is not laid out as the harness lays out references.
///
/// ```swift
/// let review = SnapshotReview(ledgers: [entries])
/// for reference in try SnapshotReview.references(under: ["Tests"]) {
///     if case .unused(let why) = review.verdict(for: reference) { print(reference, why) }
/// }
/// ```
package struct SnapshotReview: Sendable {
    /// What the runs say about one reference.
    package enum Verdict: Sendable, Equatable {
        /// A run compared it.
        case used
        /// Nothing uses it, for the reason given.
        case unused(String)
        /// The runs do not tell (its owner did not run, or did not pass).
        case notJudged
    }

    /// A changed snapshot a failed run left: the reference, where the actual one is, and its companions.
    package struct Change: Sendable {
        package var reference: String
        package var actual: String
        package var companions: [SnapshotLedger.Companion]
        package var owner: SnapshotLedger.Owner
    }

    /// The normalized paths of the references the runs compared, and of their stems (the path
    /// without its extension, so that the SVG beside a text counts too).
    private var usedPaths: Set<String> = []
    private var usedStems: Set<String> = []
    /// The owners that ran and passed, by the folder of their references.
    private var passedOwners: [String: [SnapshotLedger.Owner]] = [:]
    /// The last comparison of each reference, in order of first comparison.
    private var lastComparison: [String: SnapshotLedger.Entry] = [:]
    private var comparisonOrder: [String] = []

    /// A review of the runs whose ledgers are `ledgers` (their entries, in order).
    package init(ledgers: [[SnapshotLedger.Entry]]) {
        for entry in ledgers.joined() {
            switch entry.kind {
            case .snapshot:
                guard let reference = entry.reference.map(Self.normalized) else { continue }
                for path in [reference] + (entry.companions ?? []).map({ Self.normalized($0.reference) }) {
                    usedPaths.insert(path)
                    usedStems.insert(Self.stem(path))
                }
                if let earlier = lastComparison[reference] {
                    if entry.time >= earlier.time { lastComparison[reference] = entry }
                } else {
                    lastComparison[reference] = entry
                    comparisonOrder.append(reference)
                }
            case .ran:
                guard entry.passed == true, let folder = entry.folder else { continue }
                passedOwners[Self.normalized(folder), default: []].append(entry.owner)
            }
        }
    }

    /// The verdict on `reference` (a path).
    package func verdict(for reference: String) -> Verdict {
        let path = Self.normalized(reference)
        if usedPaths.contains(path) || usedStems.contains(Self.stem(path)) { return .used }
        let file = URL(fileURLWithPath: path)
        let folder = file.deletingLastPathComponent()
        let snapshots = folder.deletingLastPathComponent()
        guard snapshots.lastPathComponent == "__Snapshots__" else { return .notJudged }
        let name = file.lastPathComponent
        if let owner = passedOwners[folder.path]?.first(where: { name.hasPrefix($0.function + ".") }) {
            let who = owner.label.map { "\($0)" } ?? "\(owner.file) \(owner.function)"
            return .unused("\(who) ran and passed without it")
        }
        let base = snapshots.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent).path
        let owners = [base + ".flow", base + ".swift"]
        if !owners.contains(where: { FileManager.default.fileExists(atPath: $0) }) {
            return .unused("no \(folder.lastPathComponent).flow or \(folder.lastPathComponent).swift beside its __Snapshots__ any more")
        }
        return .notJudged
    }

    /// The changed snapshots to accept: each reference whose last comparison failed and left
    /// its actual snapshot, sorted by reference.
    package var changes: [Change] {
        comparisonOrder.sorted().compactMap { reference in
            guard let entry = lastComparison[reference], entry.outcome == .failed, let actual = entry.actual else { return nil }
            return Change(reference: entry.reference ?? reference, actual: actual, companions: entry.companions ?? [],
                          owner: entry.owner)
        }
    }

    /// The names of an owner: its function (or flow name), and its label (a flow's path, a
    /// Swift test's id) with, for a Swift Testing id, the name `swift test list` gives it.
    package static func names(of owner: SnapshotLedger.Owner) -> Set<String> {
        var names: Set<String> = [owner.function]
        if let label = owner.label {
            names.insert(label)
            names.insert(SnapshotLedger.Owner.swiftTestListName(ofStreamID: label))
        }
        return names
    }

    // MARK: - Files

    /// Every file in a `__Snapshots__` folder under `paths` (folders, or such files), sorted,
    /// leaving out `.build` and hidden folders.
    /// - Throws: ``SnapshotReviewError/noSuchPath(_:)``.
    package static func references(under paths: [String]) throws(SnapshotReviewError) -> [String] {
        var found: Set<String> = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .noSuchPath(path) }
            let root = URL(fileURLWithPath: path).standardizedFileURL
            guard isDirectory.boolValue else {
                if root.pathComponents.contains("__Snapshots__") { found.insert(root.path) }
                continue
            }
            let keys: [URLResourceKey] = [.isRegularFileKey, .isDirectoryKey]
            guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys) else { continue }
            for case let url as URL in walk {
                let values = try? url.resourceValues(forKeys: Set(keys))
                if values?.isDirectory == true {
                    if url.lastPathComponent.hasPrefix(".") { walk.skipDescendants() }
                    continue
                }
                guard values?.isRegularFile == true else { continue }
                let relative = url.standardizedFileURL.pathComponents.dropFirst(root.pathComponents.count)
                if relative.contains("__Snapshots__") { found.insert(url.standardizedFileURL.path) }
            }
        }
        return found.sorted()
    }

    /// `path` absolute, standardized, with symbolic links resolved: the key paths are compared by.
    package static func normalized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// `path` without its last extension.
    private static func stem(_ path: String) -> String {
        URL(fileURLWithPath: path).deletingPathExtension().path
    }
}

/// Why references could not be reviewed.
package enum SnapshotReviewError: Error, Equatable, CustomStringConvertible {
    /// A path given does not exist.
    case noSuchPath(String)

    package var description: String {
        switch self {
        case .noSuchPath(let path): "\(path): no such file or folder"
        }
    }
}
