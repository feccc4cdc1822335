import Foundation

/// Where the step engine's snapshots keep their references, as the snapshot verifier names them:
/// `<directory>/<function>.<NAME>.txt`, or without a directory
/// `__Snapshots__/<file of filePath>/<function>.<NAME>.txt` beside `filePath`.
///
/// A flow keeps them beside the flow file, named after the flow
/// (`__Snapshots__/login/login.NAME.txt`); a Swift test beside its test file, named after the
/// test (`__Snapshots__/TodoAcceptanceTests/loadsTheList.NAME.txt`), so two tests in one file
/// never share a reference.
public struct SnapshotPlace: Sendable, Hashable {
    /// The file the snapshot belongs to (a Swift test's `#filePath`).
    public var filePath: String
    /// The owner's name (`#function` of a Swift test; the flow's name).
    public var function: String
    /// The folder of the references, when not the default beside `filePath`.
    public var directory: URL?

    /// A place for the snapshots of a Swift test function.
    public init(filePath: String, function: String, directory: URL? = nil) {
        self.filePath = filePath
        self.function = function
        self.directory = directory
    }
}
