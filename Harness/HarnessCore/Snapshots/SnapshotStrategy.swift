import Foundation

/// A way to snapshot values of type `Value`: what they become (`Format`), how that is stored and
/// compared (`diffing`), the reference file's extension, and extra files written beside it.
///
/// Strategies are values and compose: ``pullback(_:)`` makes a strategy for a new type from an
/// existing one.
///
/// ```swift
/// struct Point: Encodable { var x, y: Int }
/// assertSnapshot(of: Point(x: 1, y: 2), as: .json)
///
/// // A strategy for a view model, made from the screen strategy:
/// let screenOfModel = SnapshotStrategy<ScreenSnapshot, String>.framedScreen.pullback { (model: Model) in render(model) }
/// ```
public struct SnapshotStrategy<Value, Format> {
    /// The reference file's extension, without the dot (`"txt"`).
    public var pathExtension: String
    /// How the format is stored and compared.
    public var diffing: SnapshotDiffing<Format>
    /// Turns a value into its format; may throw (an encoding error, say), which fails the assertion.
    public var snapshot: (Value) throws -> Format
    /// Extra files written beside the reference whenever it is written, and beside the actual
    /// snapshot in the artifacts directory on failure (the SVG picture of a screen, for example).
    public var companions: [SnapshotCompanion<Value>]

    /// Creates a strategy.
    public init(
        pathExtension: String,
        diffing: SnapshotDiffing<Format>,
        companions: [SnapshotCompanion<Value>] = [],
        snapshot: @escaping (Value) throws -> Format
    ) {
        self.pathExtension = pathExtension
        self.diffing = diffing
        self.companions = companions
        self.snapshot = snapshot
    }

    /// A strategy for `NewValue`: values are first turned into `Value` by `transform`, then
    /// snapshotted as this strategy does (companions included).
    public func pullback<NewValue>(_ transform: @escaping (NewValue) throws -> Value) -> SnapshotStrategy<NewValue, Format> {
        let snapshot = self.snapshot
        return SnapshotStrategy<NewValue, Format>(
            pathExtension: pathExtension,
            diffing: diffing,
            companions: companions.map { $0.pullback(transform) },
            snapshot: { try snapshot(transform($0)) }
        )
    }
}
