import Foundation
import TestSupport
import Testing
import HarnessCore
import HarnessSystem
@testable import HarnessFlows
@testable import HarnessSteps

/// `harness merge-reports` reads shard folders that jobs running the code under test wrote:
/// it copies no symbolic link and nothing outside a shard, links to no path outside the
/// report's folder, and never writes into a shard folder.
@Suite struct MergeReportsTrustTests {
    /// A folder with one finished shard, `shard-1` (a passing flow), and a folder outside it.
    func makeShard(at shard: String = "shard-1") async throws -> FlowFixture {
        let fixture = try FlowFixture()
        try fixture.write("app sh -c \"echo hi; exec cat\"\nlaunch\nexpect \"hi\"\n", at: "suite/a.flow")
        let run = try await runHarness(["run", "suite", "--artifacts", shard], in: fixture.folder)
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        try fixture.write("secret\n", at: "outside/secret.txt")
        return fixture
    }

    @Test func symlinksInAShardAreNeverCopiedAndAreWarnedAbout() async throws {
        let fixture = try await makeShard()
        defer { fixture.remove() }
        let shard = fixture.folder + "/shard-1"
        try fixture.write("kept\n", at: "shard-1/files/kept.txt")
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: shard + "/passwd", withDestinationPath: "/etc/passwd")
        try manager.createSymbolicLink(atPath: shard + "/outside", withDestinationPath: fixture.folder + "/outside")
        try manager.createSymbolicLink(atPath: shard + "/files/secret.txt", withDestinationPath: "../../outside/secret.txt")
        try manager.createSymbolicLink(atPath: shard + "/files/again", withDestinationPath: ".")
        // A socket: neither a regular file nor a folder (reading a FIFO would block the merge).
        let socket = try Posix.makeUnixSocket()
        defer { Posix.closeIgnoringErrors(socket) }
        try Posix.bind(socket, path: shard + "/files/socket")

        let merged = try await runHarness(["merge-reports", "merged", "shard-1"], in: fixture.folder)
        #expect(merged.status == 0, "\(merged.stdout)\n\(merged.stderr)")
        #expect(try String(contentsOfFile: fixture.folder + "/merged/shard-1/files/kept.txt", encoding: .utf8) == "kept\n")
        for link in ["passwd", "outside", "files/secret.txt", "files/again"] {
            #expect(Posix.entryKind(ofPath: fixture.folder + "/merged/shard-1/" + link) == nil, "\(link) was copied")
            #expect(merged.stderr.contains("warning: skipped shard-1/\(link): a symbolic link"), "\(merged.stderr)")
        }
        #expect(Posix.entryKind(ofPath: fixture.folder + "/merged/shard-1/files/socket") == nil)
        #expect(merged.stderr.contains("warning: skipped shard-1/files/socket: not a regular file or folder"), "\(merged.stderr)")
    }

    @Test func aShardWhoseReportIsALinkIsLeftOut() async throws {
        let fixture = try await makeShard()
        defer { fixture.remove() }
        try FileManager.default.moveItem(atPath: fixture.folder + "/shard-1/results.json", toPath: fixture.folder + "/outside/results.json")
        try FileManager.default.createSymbolicLink(atPath: fixture.folder + "/shard-1/results.json",
                                                   withDestinationPath: fixture.folder + "/outside/results.json")
        let merged = try await runHarness(["merge-reports", "merged", "shard-1"], in: fixture.folder)
        #expect(merged.status == 1, "\(merged.stdout)\n\(merged.stderr)")
        #expect(merged.stderr.contains("left out \(fixture.folder)/shard-1: \(fixture.folder)/shard-1/results.json is a symbolic link"),
                "\(merged.stderr)")
    }

    @Test func artifactPathsThatLeaveTheShardBecomeNoLinks() async throws {
        let fixture = try await makeShard()
        defer { fixture.remove() }
        var report = try RunReportWriter.read(folder: fixture.folder + "/shard-1")
        report.flows[0].attempts[0].artifacts = FlowArtifacts(cast: "../../../etc/passwd", screenText: "/etc/shadow",
                                                              journal: "suite/a/journal.json")
        try RunReportWriter.write(report, toFolder: fixture.folder + "/shard-1")

        let merged = try await runHarness(["merge-reports", "merged", "shard-1"], in: fixture.folder)
        #expect(merged.status == 0, "\(merged.stdout)\n\(merged.stderr)")
        #expect(merged.stderr.contains(#"shard-1: no link to suite/a.flow attempt 1: "../../../etc/passwd""#), "\(merged.stderr)")
        #expect(merged.stderr.contains(#"shard-1: no link to suite/a.flow attempt 1: "/etc/shadow""#), "\(merged.stderr)")
        let result = try RunReportWriter.read(folder: fixture.folder + "/merged")
        #expect(result.flows[0].attempts[0].artifacts == FlowArtifacts(journal: "shard-1/suite/a/journal.json"))
        let page = try String(contentsOfFile: fixture.folder + "/merged/index.html", encoding: .utf8)
        #expect(!page.contains("passwd") && !page.contains("shadow"))
    }

    /// OUT is a shard, holds one, or lies inside one (by name or through a link): refused,
    /// exit 64, and the shard is left as it was.
    @Test(arguments: [
        ("rep", "rep/shard-1"), ("shard-1", "shard-1"), ("shard-1/out", "shard-1"), (".", "shard-1"), ("alias", "shard-1"),
        ("alias/out", "shard-1"),
    ])
    func anOutputFolderThatOverlapsAShardIsRefused(output: String, input: String) async throws {
        let fixture = try await makeShard(at: input)
        defer { fixture.remove() }
        try FileManager.default.createSymbolicLink(atPath: fixture.folder + "/alias", withDestinationPath: "shard-1")
        let shard = fixture.folder + "/" + input
        let before = try FileManager.default.subpathsOfDirectory(atPath: shard).sorted()
        #expect(before.contains("results.json"))

        let merged = try await runHarness(["merge-reports", output, input], in: fixture.folder)
        #expect(merged.status == 64, "\(merged.stdout)\n\(merged.stderr)")
        #expect(merged.stderr.contains("OUT \(output) ") && merged.stderr.contains("shard folder \(input)"), "\(merged.stderr)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: shard).sorted() == before, "the shard was changed")
    }
}
