import Foundation
import HarnessCore
import HarnessFlows
import HarnessSystem

/// How `harness merge-reports` treats the shards' folders, which come from jobs that ran the
/// code under test: as untrusted input. It never writes into them, never follows or copies a
/// symbolic link found in them, and copies nothing that leads out of them.
extension MergeReportsCommand {
    /// Refuses an output folder that is one of the inputs, holds one, or lies inside one: the
    /// merge replaces `OUT/<shard>` folders and would delete the shards it reads. Paths are
    /// compared after symbolic links are resolved (the output's missing tail lexically).
    static func refuseOverlap(output: String, inputs: [String], names: [String: String], shownOutput: String) throws {
        let realOutput = resolvedAllowingMissingTail(output)
        for input in inputs {
            guard let realInput = Posix.resolvedPath(input) else { continue }
            let shown = names[input] ?? input
            let relation: String? =
                realOutput == realInput ? "is the shard folder \(shown)"
                : Posix.isPath(realInput, inside: realOutput) ? "holds the shard folder \(shown)"
                : Posix.isPath(realOutput, inside: realInput) ? "is inside the shard folder \(shown)"
                : nil
            if let relation {
                throw CommandError.usage("OUT \(shownOutput) \(relation): the merge writes into OUT and would overwrite "
                                         + "the shards it reads; give an output folder apart from every shard folder")
            }
        }
    }

    /// Whether `path` is strictly inside `folder` (both resolved).
    /// `path` with its longest existing head resolved by `realpath(3)` and the rest appended.
    private static func resolvedAllowingMissingTail(_ path: String) -> String {
        var head = URL(fileURLWithPath: path).standardizedFileURL.path
        var tail: [String] = []
        while head != "/" {
            if let resolved = Posix.resolvedPath(head) { return ([resolved] + tail.reversed()).joined(separator: "/") }
            tail.append(URL(fileURLWithPath: head).lastPathComponent)
            head = URL(fileURLWithPath: head).deletingLastPathComponent().path
        }
        return "/" + tail.reversed().joined(separator: "/")
    }

    /// The report files of a shard folder that are symbolic links (read, they would bring in
    /// whatever file they point to); empty when there are none.
    static func linkedReportFiles(in folder: String) -> [String] {
        [RunReportWriter.resultsName, FlowRunPlan.fileName, StepEngine.swiftReportsFolder]
            .map { FlowPaths.join(folder, $0) }
            .filter { Posix.entryKind(ofPath: $0) == .symbolicLink }
    }

    /// Copies a shard's folder into `destination` (replaced), leaving out its own report files.
    /// Only folders and regular files are copied: a symbolic link (to a file or a folder), a
    /// FIFO, socket or device, and anything whose real path leaves the shard are skipped, each
    /// with a warning on standard error naming it.
    /// Warnings name the paths from `shownSource`, the shard folder as given.
    static func copyArtifacts(from source: String, shownAs shownSource: String, to destination: String, warn: (String) -> Void) throws {
        guard let root = Posix.resolvedPath(source) else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: source]) }
        let manager = FileManager.default
        if Posix.entryKind(ofPath: destination) != nil { try manager.removeItem(atPath: destination) }
        try manager.createDirectory(atPath: destination, withIntermediateDirectories: true)
        let skipped: Set<String> = [RunReportWriter.pageName, RunReportWriter.resultsName]
        try copyFolder(root: root, relative: [], shownRoot: shownSource, to: destination, skipping: skipped, warn: warn)
    }

    private static func copyFolder(root: String, relative: [String], shownRoot: String, to destination: String,
                                   skipping skipped: Set<String>, warn: (String) -> Void) throws {
        let manager = FileManager.default
        let folder = ([root] + relative).joined(separator: "/")
        for name in try manager.contentsOfDirectory(atPath: folder).sorted() where !skipped.contains(name) {
            let path = folder + "/" + name
            let shown = ([shownRoot] + relative + [name]).joined(separator: "/")
            let target = destination + "/" + name
            let kind = Posix.entryKind(ofPath: path)
            guard kind == .regularFile || kind == .directory else {
                warn(kind == .symbolicLink ? "skipped \(shown): a symbolic link (shard folders are untrusted: links are never followed or copied)"
                     : "skipped \(shown): not a regular file or folder")
                continue
            }
            guard let real = Posix.resolvedPath(path), Posix.isPath(real, inside: root) else {
                warn("skipped \(shown): its real path leaves the shard folder")
                continue
            }
            if kind == .directory {
                try manager.createDirectory(atPath: target, withIntermediateDirectories: false)
                try copyFolder(root: root, relative: relative + [name], shownRoot: shownRoot, to: target, skipping: [], warn: warn)
            } else {
                try manager.copyItem(atPath: real, toPath: target)
            }
        }
    }
}
