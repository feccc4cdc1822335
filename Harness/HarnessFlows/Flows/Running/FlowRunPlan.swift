import Foundation
import HarnessSteps

/// The plan a run or a shard of it followed: every name of the whole suite (after filters,
/// before the split) with the shard it belongs to, and which shard this one is. `harness run`
/// and `harness swift-test` write it into their `--artifacts` folder (``fileName``) before
/// anything runs, so that `harness merge-reports` can prove that every shard arrived and every
/// planned flow ran exactly once (``RunCompleteness``), and `--plan FILE` makes a re-run
/// shard split the suite exactly as the first run did, whatever the durations say now.
///
/// Two identities: ``suite`` (the sorted names) says which shards belong together, ``identity``
/// (the names, the number of shards and the assignment) says whether they split the suite the
/// same way.
///
/// ```swift
/// let plan = FlowRunPlan(command: "harness run", names: paths, shard: shard, durations: durations)
/// let mine = paths.filter(plan.isMine)
/// try plan.write(toFolder: "shard-2")
/// ```
package struct FlowRunPlan: Sendable, Hashable, Codable {
    /// The file in a shard's folder.
    package static let fileName = "harness-plan.json"
    /// The format of the file; readers refuse other versions.
    package static let formatVersion = 1

    /// `formatVersion` when written.
    package var version: Int
    /// The command that ran it (`harness run`, `harness swift-test`), for messages.
    package var command: String
    /// This shard, 1...``count`` (1 for an unsharded run).
    package var shard: Int
    /// The number of shards (1 for an unsharded run).
    package var count: Int
    /// How the split was made: `hash`, `durations`, or `reused` (from an earlier plan file).
    package var split: String
    /// FNV-1a 64 of the sorted names, in hex: the same for every shard of the same suite.
    package var suite: String
    /// FNV-1a 64 of the number of shards and every name with its shard, in hex: the same for
    /// every shard that split the suite the same way.
    package var identity: String
    /// Every planned name and its shard (1...count).
    package var assignment: [String: Int]

    /// Plans `names` for `shard` (nil: an unsharded run, all in shard 1/1) from earlier
    /// `durations` (``FlowShardPlan``; without durations each name keeps its hash shard).
    package init(command: String, names: [String], shard: FlowShard?, durations: [String: Double]) {
        let count = shard?.count ?? 1
        let planned = FlowShardPlan(flows: names, count: count, durations: durations)
        self.init(command: command, shard: shard?.index ?? 1, count: count,
                  split: durations.isEmpty || count == 1 ? "hash" : "durations", assignment: planned.assignment)
    }

    /// A plan of `assignment` (each name's shard), for shard `shard` of `count`.
    package init(command: String, shard: Int, count: Int, split: String, assignment: [String: Int]) {
        self.version = Self.formatVersion
        self.command = command
        self.shard = shard
        self.count = count
        self.split = split
        self.assignment = assignment
        self.suite = Self.suiteIdentity(of: Array(assignment.keys))
        self.identity = Self.identity(count: count, assignment: assignment)
    }

    /// Every planned name, sorted.
    package var names: [String] { assignment.keys.sorted() }

    /// This shard's names, sorted.
    package var mine: [String] { names.filter(isMine) }

    /// Whether `name` is planned for this shard.
    package func isMine(_ name: String) -> Bool { assignment[name] == shard }

    /// `2/4` (`1/1` unsharded).
    package var shardDescription: String { "\(shard)/\(count)" }

    /// The first 12 hex digits of ``suite``, for messages.
    package var shortSuite: String { String(suite.prefix(12)) }

    /// The same split, for another shard of the same run (`--plan FILE` with `--shard I/N`).
    /// - Throws: ``FlowRunPlanError`` when the plan was made for another number of shards or
    ///   another suite (`names`: this run's names after filters).
    package func reused(for shard: FlowShard, names: [String], file: String) throws(FlowRunPlanError) -> FlowRunPlan {
        guard shard.count == count else {
            throw .otherCount(file: file, planned: count, given: shard.count)
        }
        let now = Set(names), then = Set(assignment.keys)
        guard now == then else {
            throw .otherSuite(file: file, added: now.subtracting(then).sorted(), removed: then.subtracting(now).sorted())
        }
        var plan = self
        plan.shard = shard.index
        plan.split = "reused"
        return plan
    }

    // MARK: - Identities

    /// FNV-1a 64 (``FlowShard/fnv1a64(_:)``) of the sorted names, one a line, in hex.
    package static func suiteIdentity(of names: [String]) -> String {
        hex(FlowShard.fnv1a64(names.sorted().map { $0 + "\n" }.joined()))
    }

    /// FNV-1a 64 of `count`, then each name and its shard, in hex.
    package static func identity(count: Int, assignment: [String: Int]) -> String {
        let lines = assignment.sorted { $0.key < $1.key }.map { "\($0.key)\t\($0.value)\n" }
        return hex(FlowShard.fnv1a64("\(count)\n" + lines.joined()))
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    // MARK: - The file

    /// Writes ``fileName`` into `folder` (created if needed); returns its path.
    @discardableResult
    package func write(toFolder folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let path = FlowPaths.join(folder, Self.fileName)
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    /// The plan in `folder`, or nil when it holds none.
    /// - Throws: ``FlowRunPlanError`` when the file is there but cannot be used.
    package static func read(folder: String) throws(FlowRunPlanError) -> FlowRunPlan? {
        let path = FlowPaths.join(folder, fileName)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try read(path: path)
    }

    /// The plan in the file `path` (a shard folder's ``fileName``).
    package static func read(path: String) throws(FlowRunPlanError) -> FlowRunPlan {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadable(file: path, reason: "no such file")
        }
        if isDirectory.boolValue {
            // A shard's folder: its plan file.
            guard let plan = try read(folder: path) else {
                throw .unreadable(file: path, reason: "the folder holds no \(fileName) (was it a shard's --artifacts folder?)")
            }
            return plan
        }
        let plan: FlowRunPlan
        do {
            plan = try JSONDecoder().decode(FlowRunPlan.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .unreadable(file: path, reason: "not a plan written by harness run or harness swift-test (\(error))")
        }
        guard plan.version == formatVersion else {
            throw .unreadable(file: path, reason: "plan format \(plan.version), this harness reads \(formatVersion)")
        }
        guard plan.count >= 1, (1...plan.count).contains(plan.shard), plan.assignment.values.allSatisfy({ (1...plan.count).contains($0) }),
              plan.suite == suiteIdentity(of: Array(plan.assignment.keys)),
              plan.identity == identity(count: plan.count, assignment: plan.assignment)
        else {
            throw .unreadable(file: path, reason: "the plan does not add up (edited by hand?)")
        }
        return plan
    }
}

/// A plan file that cannot be used (the message starts with the file's path).
package enum FlowRunPlanError: Error, Equatable, CustomStringConvertible {
    /// Missing, not JSON, another format, or inconsistent.
    case unreadable(file: String, reason: String)
    /// Planned for another number of shards than `--shard` says.
    case otherCount(file: String, planned: Int, given: Int)
    /// The suite has other names now than when the plan was made.
    case otherSuite(file: String, added: [String], removed: [String])

    package var description: String {
        switch self {
        case .unreadable(let file, let reason): return "\(file): \(reason)"
        case .otherCount(let file, let planned, let given):
            return "\(file): the plan splits the suite into \(planned) shards, --shard says \(given)"
        case .otherSuite(let file, let added, let removed):
            var parts: [String] = []
            if !added.isEmpty { parts.append("not in the plan: " + added.joined(separator: ", ")) }
            if !removed.isEmpty { parts.append("planned but not found now: " + removed.joined(separator: ", ")) }
            return "\(file): the suite changed since the plan was made (\(parts.joined(separator: "; ")))"
        }
    }
}

extension FlowRunPlan {
    /// `3 flows`, `1 test`: what the command runs, counted.
    package func counted(_ number: Int) -> String {
        let noun = command.hasSuffix("swift-test") ? "test" : "flow"
        return "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
