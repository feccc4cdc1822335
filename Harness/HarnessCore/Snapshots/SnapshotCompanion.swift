import Foundation

/// An extra file that goes with a snapshot, such as the SVG picture of a screen.
///
/// It is never compared: it is written beside the reference whenever the reference is written,
/// and beside the actual snapshot in the artifacts directory when the assertion fails.
public struct SnapshotCompanion<Value> {
    /// The file's extension, without the dot (`"svg"`); the file's stem is the reference's.
    public var pathExtension: String
    /// The file's bytes for a value.
    public var render: (Value) throws -> Data

    /// Creates a companion file kind.
    public init(pathExtension: String, render: @escaping (Value) throws -> Data) {
        self.pathExtension = pathExtension
        self.render = render
    }

    /// The same companion for values of type `NewValue`, first turned into `Value`.
    public func pullback<NewValue>(_ transform: @escaping (NewValue) throws -> Value) -> SnapshotCompanion<NewValue> {
        let render = self.render
        return SnapshotCompanion<NewValue>(pathExtension: pathExtension) { try render(transform($0)) }
    }
}
