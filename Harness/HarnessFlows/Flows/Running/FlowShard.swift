import HarnessSteps
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

    // MARK: - --shard auto

    /// The variables `--shard auto` reads, in order: each CI's own names for "this job's index
    /// among N parallel jobs", with the base of its index.
    public static let ciVariables: [(index: String, total: String?, base: Int, ci: String)] = [
        ("HARNESS_SHARD_INDEX", "HARNESS_SHARD_TOTAL", 1, "any CI (e.g. a GitHub Actions matrix)"),
        (bazelIndexVariable, "TEST_TOTAL_SHARDS", 0, "Bazel test sharding (shard_count)"),
        ("CI_NODE_INDEX", "CI_NODE_TOTAL", 1, "GitLab parallel jobs"),
        ("BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0, "Buildkite parallelism"),
        ("CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0, "CircleCI parallelism"),
        ("JOB_COMPLETION_INDEX", nil, 0, "Kubernetes indexed Jobs"),
    ]

    /// Bazel's shard index (0-based). Bazel runs a test target with `shard_count` as that many
    /// processes and fails a shard that does not touch `TEST_SHARD_STATUS_FILE` (see
    /// ``autoVariable(in:)``).
    public static let bazelIndexVariable = "TEST_SHARD_INDEX"

    /// The index variable `--shard auto` takes its shard from in `environment`: the first of
    /// ``ciVariables`` that is set (not empty), or nil.
    public static func autoVariable(in environment: [String: String]) -> String? {
        ciVariables.first { environment[$0.index].map { !$0.isEmpty } ?? false }?.index
    }

    /// `--shard auto` (or `auto/N`): this job's shard from the CI's variables. The first of
    /// ``ciVariables`` whose index is set wins; its total comes from its own variable, or from
    /// `total` (`auto/N`, required for Kubernetes, whose pods only know their index), or from
    /// `HARNESS_SHARD_TOTAL`.
    public static func fromEnvironment(_ environment: [String: String], total: Int? = nil) throws(FlowShardError) -> FlowShard {
        for variable in ciVariables {
            guard let indexText = environment[variable.index], !indexText.isEmpty else { continue }
            guard let index = Int(indexText) else {
                throw .badVariable(name: variable.index, value: indexText)
            }
            let totalText = variable.total.flatMap { environment[$0] } ?? environment["HARNESS_SHARD_TOTAL"]
            let count: Int
            if let total {
                count = total
            } else if let totalText, let parsed = Int(totalText) {
                count = parsed
            } else if let totalText {
                throw .badVariable(name: variable.total ?? "HARNESS_SHARD_TOTAL", value: totalText)
            } else {
                throw .noTotal(indexVariable: variable.index)
            }
            return try FlowShard(index: index - variable.base + 1, count: count)
        }
        throw .noCIVariables
    }

    /// Parses a `--shard` value: `I/N`, `auto` or `auto/N`.
    public init(argument: String, environment: [String: String]) throws(FlowShardError) {
        if argument == "auto" {
            self = try Self.fromEnvironment(environment)
        } else if argument.hasPrefix("auto/") {
            let totalText = argument.dropFirst(5)
            guard !totalText.isEmpty, totalText.count <= 6, totalText.allSatisfy(\.isASCIIDigit), let total = Int(totalText) else {
                throw .malformed(argument)
            }
            self = try Self.fromEnvironment(environment, total: total)
        } else {
            try self.init(parsing: argument)
        }
    }
}

/// A bad `--shard` value.
public enum FlowShardError: Error, Equatable, CustomStringConvertible {
    /// Not `I/N`.
    case malformed(String)
    /// `I` not in 1...N, or N zero.
    case outOfRange(index: Int, count: Int)
    /// `--shard auto` found none of the CI variables.
    case noCIVariables
    /// `--shard auto` found an index but no total.
    case noTotal(indexVariable: String)
    /// A CI variable that is not a number.
    case badVariable(name: String, value: String)

    /// A message for the user.
    public var description: String {
        switch self {
        case .malformed(let text): "--shard \"\(text)\": expected I/N, e.g. 1/4"
        case .outOfRange(let index, let count): "--shard \(index)/\(count): I must be between 1 and N, and N at least 1"
        case .noCIVariables:
            "--shard auto: none of " + FlowShard.ciVariables.map(\.index).joined(separator: ", ")
                + " is set; set HARNESS_SHARD_INDEX and HARNESS_SHARD_TOTAL (1-based), or pass --shard I/N"
        case .noTotal(let variable):
            "--shard auto: \(variable) is set but not the number of shards; pass --shard auto/N or set HARNESS_SHARD_TOTAL"
        case .badVariable(let name, let value): "--shard auto: \(name)=\(value.debugDescription) is not a number"
        }
    }
}
