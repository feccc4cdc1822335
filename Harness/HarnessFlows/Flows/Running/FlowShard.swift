/// `--shard I/N`: which part of a suite this machine runs.
///
/// A flow belongs to shard `FNV-1a-64(relativePath as UTF-8) mod N + 1`, so the split depends
/// only on the flow's relative path: the same on every machine and every run, and adding a
/// flow never moves the others. (The price: shards are only roughly even for small suites.)
///
/// ```swift
/// let shard = try FlowShard(parsing: "2/4")
/// let mine = flows.filter(shard.contains)
/// ```
public struct FlowShard: Sendable, Hashable, CustomStringConvertible {
    /// This shard, 1...count.
    public let index: Int
    /// The number of shards.
    public let count: Int

    /// Creates a shard; `index` must be in 1...count.
    public init(index: Int, count: Int) throws(FlowShardError) {
        guard count >= 1, (1...count).contains(index) else {
            throw .outOfRange(index: index, count: count)
        }
        self.index = index
        self.count = count
    }

    /// Parses `I/N` (1-based, `1/4` ... `4/4`).
    public init(parsing text: String) throws(FlowShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy(\.isASCIIDigit) }),
              let index = Int(parts[0]), let count = Int(parts[1])
        else { throw .malformed(text) }
        try self.init(index: index, count: count)
    }

    /// The 1-based shard a flow with this relative path belongs to among `count`.
    public static func shardIndex(of relativePath: String, count: Int) -> Int {
        Int(fnv1a64(relativePath) % UInt64(max(count, 1))) + 1
    }

    /// Whether `flow` runs in this shard.
    public func contains(_ flow: FlowFile) -> Bool {
        Self.shardIndex(of: flow.relativePath, count: count) == index
    }

    /// 64-bit FNV-1a of the UTF-8 bytes: a fixed, seedless hash (unlike Swift's `Hasher`).
    public static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }
}

/// A bad `--shard` value.
public enum FlowShardError: Error, Equatable, CustomStringConvertible {
    /// Not `I/N`.
    case malformed(String)
    /// `I` not in 1...N, or N zero.
    case outOfRange(index: Int, count: Int)

    /// A message for the user.
    public var description: String {
        switch self {
        case .malformed(let text): "--shard \"\(text)\": expected I/N, e.g. 1/4"
        case .outOfRange(let index, let count): "--shard \(index)/\(count): I must be between 1 and N, and N at least 1"
        }
    }
}
