import Foundation
import TestSupport
import Testing
import Harness
import HarnessSystem
@testable import HarnessFlows
@testable import HarnessSteps

@Suite struct FlowDiscoveryTests {
    @Test func findsFlowsRecursivelySortedAndSkipsHiddenAndOtherFiles() throws {
        let root = try TemporaryDirectory(prefix: "flowtests").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for path in ["Flows/b.flow", "Flows/a.flow", "Flows/sub/c.flow", "Flows/notes.txt", "Flows/.hidden/d.flow", "Flows/.e.flow", "Other/x.flow"] {
            try writeFile("", at: path, in: root)
        }
        let flows = try FlowDiscovery.discover(["Flows"], root: root)
        #expect(flows.map(\.relativePath) == ["Flows/a.flow", "Flows/b.flow", "Flows/sub/c.flow"])
        #expect(flows[0].path == root + "/Flows/a.flow")
        #expect(flows[2].name == "c" && flows[2].folder == "Flows/sub")

        let both = try FlowDiscovery.discover(["Other/x.flow", "Flows", "Flows/a.flow"], root: root)
        #expect(both.map(\.relativePath) == ["Flows/a.flow", "Flows/b.flow", "Flows/sub/c.flow", "Other/x.flow"])
    }

    /// A flow (or a folder) whose name is not valid UTF-8 cannot be named, so it cannot run: it
    /// is said, with the invalid byte as `\xFF`, and the others run.
    @Test func namesThatAreNotUTF8AreReportedNotSkippedSilently() throws {
        let root = try TemporaryDirectory(prefix: "flowtests").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try writeFile("", at: "Flows/good.flow", in: root)
        try Posix.createEntry(in: root + "/Flows", named: Array("bad".utf8) + [0xFF] + Array(".flow".utf8))
        try Posix.createEntry(in: root + "/Flows", named: Array("notes".utf8) + [0xFE], directory: false)
        try Posix.createEntry(in: root + "/Flows", named: Array("dir".utf8) + [0xC3], directory: true)
        var warnings: [FlowDiscoveryWarning] = []
        let flows = try FlowDiscovery.discover(["Flows"], root: root) { warnings.append($0) }
        #expect(flows.map(\.relativePath) == ["Flows/good.flow"])
        #expect(warnings == [.nonUTF8Name("Flows/bad\\xFF.flow", isFolder: false), .nonUTF8Name("Flows/dir\\xC3", isFolder: true)])
        #expect(warnings.first?.description == "Flows/bad\\xFF.flow: the flow's name is not valid UTF-8: not run (rename it)")
    }

    @Test func filterMatchesTheRelativePath() throws {
        let root = try TemporaryDirectory(prefix: "flowtests").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for path in ["F/login.flow", "F/logout.flow", "F/sub/list.flow"] { try writeFile("", at: path, in: root) }
        #expect(try FlowDiscovery.discover(["F"], root: root, filter: "log(in|out)").map(\.name) == ["login", "logout"])
        #expect(try FlowDiscovery.discover(["F"], root: root, filter: "^F/sub/").map(\.name) == ["list"])
        #expect(throws: FlowDiscoveryError.invalidFilter(pattern: "(")) { try FlowDiscovery.discover(["F"], root: root, filter: "(") }
        #expect(throws: FlowDiscoveryError.pathNotFound("nope")) { try FlowDiscovery.discover(["nope"], root: root) }
    }

    @Test func pathsOutsideTheRootAreNamedFromTheGivenFolder() throws {
        let outside = try TemporaryDirectory(prefix: "flowtests").path
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try writeFile("", at: "suite/x/a.flow", in: outside)
        let flows = try FlowDiscovery.discover([outside + "/suite"], root: "/nonexistent-root")
        #expect(flows.map(\.relativePath) == ["suite/x/a.flow"])
        let single = try FlowDiscovery.discover([outside + "/suite/x/a.flow"], root: "/nonexistent-root")
        #expect(single.map(\.relativePath) == ["a.flow"])
    }

    @Test func fnv1a64KnownValues() {
        #expect(FlowShard.fnv1a64("") == 0xcbf2_9ce4_8422_2325)
        #expect(FlowShard.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(FlowShard.fnv1a64("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test(arguments: [1, 2, 3, 4, 7])
    func everyFlowIsInExactlyOneShard(count: Int) throws {
        let flows = (0..<200).map { flowFile("Tests/Flows/group\($0 % 7)/flow\($0).flow") }
        let shards = try (1...count).map { try FlowShard(index: $0, count: count) }
        var seen: [String: Int] = [:]
        for shard in shards {
            for flow in flows where shard.contains(flow) { seen[flow.relativePath, default: 0] += 1 }
        }
        #expect(seen.count == flows.count)
        #expect(seen.values.allSatisfy { $0 == 1 })
        if count > 1 {
            // No shard is empty for a suite this size.
            for shard in shards { #expect(flows.contains(where: shard.contains)) }
        }
    }

    @Test func shardAssignmentIsStable() throws {
        // Fixed expectations: the split must not change between runs, machines or releases.
        let paths = ["Tests/Flows/idle.flow", "Tests/Flows/loading.flow", "Tests/Flows/error.flow", "Tests/Flows/loaded.flow"]
        let assigned = paths.map { FlowShard.shardIndex(of: $0, count: 3) }
        let again = paths.map { FlowShard.shardIndex(of: $0, count: 3) }
        #expect(assigned == again)
        #expect(assigned == paths.map { Int(FlowShard.fnv1a64($0) % 3) + 1 })
        #expect(FlowShard.shardIndex(of: "a", count: 4) == Int(UInt64(0xaf63_dc4c_8601_ec8c) % 4) + 1)
    }

    @Test func shardParsing() throws {
        #expect(try FlowShard(parsing: "2/4") == FlowShard(index: 2, count: 4))
        #expect(throws: FlowShardError.outOfRange(index: 0, count: 4)) { try FlowShard(parsing: "0/4") }
        #expect(throws: FlowShardError.outOfRange(index: 5, count: 4)) { try FlowShard(parsing: "5/4") }
        #expect(throws: FlowShardError.outOfRange(index: 1, count: 0)) { try FlowShard(parsing: "1/0") }
        for bad in ["2", "1/", "/2", "a/b", "1/2/3", "-1/2"] {
            #expect(throws: FlowShardError.malformed(bad)) { try FlowShard(parsing: bad) }
        }
    }
}

@Suite struct FlowLoadAllTests {
    @Test func errorsOfEveryFileAreCollected() throws {
        let root = try TemporaryDirectory(prefix: "flowtests").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try writeFile("app ./a\nlaunch\npress entr\n", at: "F/a.flow", in: root)
        try writeFile("app ./a\nlaunch\n", at: "F/b.flow", in: root)
        try writeFile("launch\n", at: "F/c.flow", in: root)
        let flows = try FlowDiscovery.discover(["F"], root: root)
        do {
            _ = try FlowParser.loadAll(flows)
            Issue.record("expected errors")
        } catch {
            #expect(error.errors.map(\.position.description) == ["F/a.flow:3:7", "F/c.flow:1:1"])
        }
        #expect(try FlowParser.loadAll([flows[1]]).map(\.file) == ["F/b.flow"])
    }
}
