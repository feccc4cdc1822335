/// The OSC 8 hyperlinks cells refer to, interned: a cell stores a 16-bit index (0 is "no
/// link"), so a cell stays 16 bytes and the same URI printed over many cells is stored once.
///
/// Append-only, like `ClusterTable`: the scrollback and snapshots keep indices, so an index
/// never changes meaning. Capped at 65,535 distinct URIs; past that, new links are not
/// recorded (their cells show no link).
struct LinkTable: Equatable {
    static let capacity = Int(UInt16.max)

    /// The URIs, index 0 being the empty "no link".
    private(set) var uris: [String] = [""]
    private var indices: [String: UInt16] = [:]

    /// The index of `uri`, interning it; nil when the table is full or the URI is empty.
    mutating func intern(_ uri: String) -> UInt16? {
        guard !uri.isEmpty else { return nil }
        if let index = indices[uri] { return index }
        guard uris.count <= Self.capacity else { return nil }
        let index = UInt16(uris.count)
        uris.append(uri)
        indices[uri] = index
        return index
    }

    static func == (lhs: LinkTable, rhs: LinkTable) -> Bool { lhs.uris == rhs.uris }
}
