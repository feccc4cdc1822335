/// Interned grapheme clusters (a base character plus combining marks) referenced by cells.
///
/// Cells store an index, so a cell stays a plain value; the same cluster drawn many times
/// is stored once. The table is capped: past `capacity` distinct clusters, new marks are dropped.
struct ClusterTable {
    static let capacity = 1 << 16

    private(set) var strings: [String] = []
    private var indices: [String: UInt32] = [:]

    /// The index of `cluster`, interning it; nil when the table is full.
    mutating func intern(_ cluster: String) -> UInt32? {
        if let index = indices[cluster] { return index }
        guard strings.count < Self.capacity else { return nil }
        let index = UInt32(strings.count)
        strings.append(cluster)
        indices[cluster] = index
        return index
    }

    /// The text a cell's `content` stands for (" " for a blank).
    func text(of content: UInt32) -> String { Self.text(of: content, clusters: strings) }

    /// The text a stored cell's `content` stands for, its clusters interned in `clusters`
    /// (" " for a blank, U+FFFD for what no cluster or scalar stands for).
    static func text(of content: UInt32, clusters: [String]) -> String {
        if content == 0 { return " " }
        if content & StoredCell.clusterFlag != 0 {
            let index = Int(content & ~StoredCell.clusterFlag)
            return index < clusters.count ? clusters[index] : "\u{FFFD}"
        }
        return String(Unicode.Scalar(content) ?? "\u{FFFD}")
    }

    mutating func removeAll() {
        strings.removeAll()
        indices.removeAll()
    }
}
