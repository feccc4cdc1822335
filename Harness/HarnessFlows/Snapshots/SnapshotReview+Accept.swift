import Foundation
import HarnessCore
import HarnessSteps
import HarnessSystem

extension SnapshotReview.Change {
    /// Why `harness snapshots accept` must not copy this change, or nil when it may. A run's
    /// ledger is read from its artifacts folder, which a job running the code under test wrote,
    /// so every path in it is checked before anything is written:
    ///
    /// - each reference (the change's and its companions') is a file `<F>.<name>.<ext>`, `<F>`
    ///   the owner's function (a flow's name, a test function), directly in a folder
    ///   `<D>/__Snapshots__/<S>`: the owner's own (its file is `<D>/<S>.flow` or
    ///   `<D>/<S>.swift`), or one that exists already (a `snapshotDirectory:` of that layout);
    ///   the path has no `..` component, the name does not start with `.`, and neither
    ///   `__Snapshots__`, `<S>` nor the file is a symbolic link; a companion has the
    ///   reference's stem;
    /// - each actual snapshot copied is a regular file (not a link) whose real path is inside
    ///   one of `runFolders`.
    package func acceptRefusal(runFolders: [String]) -> String? {
        if let problem = referenceProblem(reference, stem: nil) { return problem }
        if let problem = actualProblem(actual, runFolders: runFolders) { return problem }
        let stem = URL(fileURLWithPath: reference).deletingPathExtension().lastPathComponent
        for companion in companions {
            if let problem = referenceProblem(companion.reference, stem: stem) { return problem }
            if let actual = companion.actual, Posix.entryKind(ofPath: actual) != nil,
               let problem = actualProblem(actual, runFolders: runFolders) { return problem }
        }
        return nil
    }

    private func referenceProblem(_ path: String, stem: String?) -> String? {
        let refused = "refused to write \(path.debugDescription):"
        guard path.hasPrefix("/"), !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else {
            return "\(refused) a reference is an absolute path without `.` or `..` components"
        }
        let file = URL(fileURLWithPath: path)
        let name = file.lastPathComponent
        let folder = file.deletingLastPathComponent()
        let snapshots = folder.deletingLastPathComponent()
        guard snapshots.lastPathComponent == "__Snapshots__" else {
            return "\(refused) references are written only into a folder __Snapshots__/<name>/"
        }
        guard !name.hasPrefix("."), name.hasPrefix(owner.function + "."), owner.function != "" else {
            return "\(refused) a reference of \(owner.function.debugDescription) is named \(owner.function).<name>.<ext>"
        }
        if let stem, !name.hasPrefix(stem + ".") {
            return "\(refused) a companion is named after its reference (\(stem).<ext>)"
        }
        let ownerFile = URL(fileURLWithPath: owner.file).standardizedFileURL
        let ownFolder = ["flow", "swift"].contains(ownerFile.pathExtension)
            && ownerFile.deletingLastPathComponent().path == snapshots.deletingLastPathComponent().path
            && ownerFile.deletingPathExtension().lastPathComponent == folder.lastPathComponent
            && Posix.fileStatus(ofPath: ownerFile.path)?.isRegularFile == true
        let folderKind = Posix.entryKind(ofPath: folder.path)
        guard ownFolder || folderKind == .directory else {
            return "\(refused) \(folder.path) is neither the snapshot folder of \(owner.file) nor an existing snapshot folder"
        }
        for (candidate, kinds) in [(snapshots.path, [Posix.EntryKind.directory]), (folder.path, [.directory]), (path, [.regularFile])] {
            if let kind = Posix.entryKind(ofPath: candidate), !kinds.contains(kind) {
                return "\(refused) \(candidate) is \(kind == .symbolicLink ? "a symbolic link" : "not a \(kinds == [.directory] ? "folder" : "regular file")")"
            }
        }
        return nil
    }

    private func actualProblem(_ path: String, runFolders: [String]) -> String? {
        guard Posix.entryKind(ofPath: path) == .regularFile, let real = Posix.resolvedPath(path) else {
            return "refused to copy \(path.debugDescription): the actual snapshot is not a regular file"
        }
        let inside = runFolders.compactMap(Posix.resolvedPath).contains { Posix.isPath(real, inside: $0) }
        return inside ? nil : "refused to copy \(path.debugDescription): the actual snapshot is not inside the run folder"
    }
}
