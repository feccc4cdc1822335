import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// docs/NIGHTLY.md's Bazel, CircleCI, GitLab CI and Buildkite recipes. The Bazel files shown
/// are the ones of Tests/Bazel, and its commands are Scripts/bazel-check.sh's (which CI runs
/// with a real Bazel); the other CIs' commands run here as written, through `sh`, on a small
/// suite, with each CI's variables.
@Suite struct NightlyRecipeTests {
    static let document = "docs/NIGHTLY.md"

    static func blocks(_ language: String, section: String) throws -> [DocumentedExample] {
        let text = try DocumentedExamples.read(document, fromTestFile: #filePath)
        return DocumentedExamples.blocks(in: text, document: document, language: language, section: section)
    }

    static func file(_ relativePath: String) throws -> String {
        try DocumentedExamples.read(relativePath, fromTestFile: #filePath)
    }

    // MARK: - Bazel

    @Test func theBazelFilesShownAreTheCheckedOnes() throws {
        let build = try #require(try Self.blocks("python", section: "Bazel").first)
        if let failure = DocumentedExamples.verifyIdentical(build, to: try Self.file("Tests/Bazel/BUILD"), fileName: "Tests/Bazel/BUILD") {
            Issue.record(Comment(rawValue: failure))
        }
        let shell = try Self.blocks("sh", section: "Bazel")
        #expect(shell.count == 2)
        let script = try #require(shell.first)
        if let failure = DocumentedExamples.verifyIdentical(script, to: try Self.file("Tests/Bazel/run-flows.sh"), fileName: "Tests/Bazel/run-flows.sh") {
            Issue.record(Comment(rawValue: failure))
        }
        let commands = try #require(shell.last)
        if let failure = DocumentedExamples.verifyMirrored(commands, in: try Self.file("Scripts/bazel-check.sh"), sourceName: "Scripts/bazel-check.sh") {
            Issue.record(Comment(rawValue: failure))
        }
        #expect(try Self.file(".ci/run").contains("Scripts/bazel-check.sh"))
    }

    // MARK: - CircleCI

    /// The `command: |` scripts of the YAML block, in order, and its one-line `run:` commands
    /// that call `harness`.
    static func circleScripts() throws -> (shard: String, merge: String, verdict: String) {
        let yaml = try #require(try blocks("yaml", section: "CircleCI").first).lines
        var scripts: [String] = []
        var index = 0
        while index < yaml.count {
            let line = yaml[index]
            index += 1
            guard line.trimmingCharacters(in: .whitespaces) == "command: |" else { continue }
            let indent = line.prefix { $0 == " " }.count
            var body: [String] = []
            while index < yaml.count, yaml[index].prefix(while: { $0 == " " }).count > indent {
                body.append(String(yaml[index].dropFirst(indent + 2)))
                index += 1
            }
            scripts.append(body.joined(separator: "\n"))
        }
        let merge = try #require(yaml.first { $0.contains("harness merge-reports") })
        #expect(scripts.count == 2)
        return (scripts[0], String(merge.split(separator: "run: ", maxSplits: 1)[1]), scripts[1])
    }

    /// `script` run by `sh` in `folder` as the docs write it, the suite and `harness` being
    /// this test's.
    static func runDocumented(_ script: String, in folder: String, environment extra: [String: String] = [:]) async throws -> ProgramOutput {
        let filled = script.replacingOccurrences(of: ".build/release/harness", with: try BuildProducts.executable(named: "harness").path)
            .replacingOccurrences(of: "Tests/Flows", with: "suite")
        var environment = ProcessInfo.processInfo.environment
        for name in BazelProtocolTests.shardVariables { environment[name] = nil }
        environment["HARNESS_RECORD"] = "never"
        environment["HARNESS_PRODUCTS_DIR"] = BuildProducts.directory.path
        for (key, value) in extra { environment[key] = value }
        return try await runProgram("/bin/sh", ["-c", filled], environment: environment, workingDirectory: folder)
    }

    /// Six flows, one failing.
    static func makeSuite() throws -> FlowFixture {
        let fixture = try FlowFixture()
        for index in 1...5 { try fixture.write(RunDiscoveryTests.passing("f\(index)"), at: "suite/f\(index).flow") }
        try fixture.write("app sh -c \"echo no\"\nlaunch pipes\nexit 0\nstdout contains \"yes\"\n", at: "suite/failing.flow")
        return fixture
    }

    /// Four nodes run their shards (each succeeds, whatever its flows did), the merge holds
    /// every flow once, and the verdict fails on the failing flow.
    @Test func theCircleCIRecipeShardsMergesAndGivesTheVerdict() async throws {
        let fixture = try Self.makeSuite()
        defer { fixture.remove() }
        let (shard, merge, verdict) = try Self.circleScripts()
        for node in 0..<4 {
            let output = try await Self.runDocumented(shard, in: fixture.folder,
                                                      environment: ["CIRCLE_NODE_INDEX": "\(node)", "CIRCLE_NODE_TOTAL": "4"])
            #expect(output.status == 0, "node \(node): \(output.stdout)\(output.stderr)")
            #expect(output.stdout.contains(", shard \(node + 1)/4"), "\(output.stdout)")
        }
        let merged = try await Self.runDocumented(merge, in: fixture.folder)
        #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
        let report = try JUnitReader.read(path: fixture.folder + "/report/junit.xml")
        #expect(report.suites.flatMap(\.cases).compactMap(\.file).sorted() == (["failing"] + (1...5).map { "f\($0)" }).map { "suite/\($0).flow" }.sorted())
        #expect(report.failures == 1)
        let judged = try await Self.runDocumented(verdict, in: fixture.folder)
        #expect(judged.status == 1 && judged.stdout.contains("Flows failed"))
    }

    // MARK: - GitLab CI and Buildkite

    /// The multi-line scripts of a YAML block (`- |` list items and `command: |` keys), in
    /// order, without their `swift build` lines (the build is this test's).
    static func yamlScripts(section: String) throws -> [String] {
        let yaml = try #require(try blocks("yaml", section: section).first).lines
        var scripts: [String] = []
        var index = 0
        while index < yaml.count {
            let line = yaml[index]
            index += 1
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed == "- |" || trimmed == "command: |" else { continue }
            let indent = line.prefix { $0 == " " }.count
            var body: [String] = []
            while index < yaml.count, yaml[index].prefix(while: { $0 == " " }).count > indent {
                body.append(String(yaml[index].drop { $0 == " " }))
                index += 1
            }
            scripts.append(body.filter { !$0.hasPrefix("swift build ") }.joined(separator: "\n"))
        }
        return scripts
    }

    /// The flows with their status, from the merged JUnit of `folder`.
    static func expectWholeMerge(in folder: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let report = try JUnitReader.read(path: folder + "/report/junit.xml")
        #expect(report.suites.flatMap(\.cases).compactMap(\.file).sorted()
                == (["failing"] + (1...5).map { "f\($0)" }).map { "suite/\($0).flow" }.sorted(), sourceLocation: sourceLocation)
        #expect(report.failures == 1, sourceLocation: sourceLocation)
    }

    /// Four parallel jobs (`CI_NODE_INDEX` 1...4) run their shards and succeed whatever their
    /// flows did; the report job merges every flow once and fails on the failing one.
    @Test func theGitLabRecipeShardsMergesAndGivesTheVerdict() async throws {
        let fixture = try Self.makeSuite()
        defer { fixture.remove() }
        let scripts = try Self.yamlScripts(section: "GitLab CI")
        try #require(scripts.count == 2)
        #expect(scripts[0].contains("$CI_NODE_INDEX"))
        for node in 1...4 {
            let output = try await Self.runDocumented(scripts[0], in: fixture.folder,
                                                      environment: ["CI_NODE_INDEX": "\(node)", "CI_NODE_TOTAL": "4"])
            #expect(output.status == 0, "node \(node): \(output.stdout)\(output.stderr)")
            #expect(output.stdout.contains(", shard \(node)/4"), "\(output.stdout)")
        }
        let report = try await Self.runDocumented(scripts[1], in: fixture.folder)
        #expect(report.status == 1 && report.stdout.contains("Flows failed"), "\(report.stdout)\(report.stderr)")
        try Self.expectWholeMerge(in: fixture.folder)
        #expect(FileManager.default.fileExists(atPath: fixture.folder + "/report/index.html"))
    }

    /// Buildkite's four parallel jobs (`BUILDKITE_PARALLEL_JOB` 0...3) each upload their shard's
    /// folder (`artifact_paths`); the report step, in another checkout, downloads them with a
    /// stand-in `buildkite-agent`, merges, uploads the report and gives the verdict. The
    /// pipeline's `$$` is Buildkite's escape for `$`, undone here as its upload does.
    @Test func theBuildkiteRecipeShardsMergesAndGivesTheVerdict() async throws {
        let fixture = try Self.makeSuite()
        defer { fixture.remove() }
        let scripts = try Self.yamlScripts(section: "Buildkite").map { $0.replacingOccurrences(of: "$$", with: "$") }
        try #require(scripts.count == 2)
        let yaml = try #require(try Self.blocks("yaml", section: "Buildkite").first).text
        #expect(yaml.contains("artifact_paths: \"shards/**/*\"") && scripts[1].contains("artifact download \"shards/**/*\" ."))
        // The agent keeps what a job uploads in the store; a download copies it back.
        try fixture.write("""
            #!/bin/sh
            store=${FAKE_STORE:?}
            echo "$*" >> "$store/agent-calls.txt"
            case "$1 $2" in
              "artifact download") mkdir -p "$4" && cp -R "$store/shards" "$4/" ;;
              "artifact upload") cp -R "${3%%/*}" "$store/" ;;
              *) echo "fake buildkite-agent: unknown command $*" >&2; exit 64 ;;
            esac

            """, at: "bin/buildkite-agent", executable: true)
        let store = fixture.folder + "/store"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        for node in 0..<4 {
            let output = try await Self.runDocumented(scripts[0], in: fixture.folder, environment: [
                "BUILDKITE_PARALLEL_JOB": "\(node)", "BUILDKITE_PARALLEL_JOB_COUNT": "4"])
            #expect(output.status == 0, "node \(node): \(output.stdout)\(output.stderr)")
            #expect(output.stdout.contains(", shard \(node + 1)/4"), "\(output.stdout)")
        }
        // What `artifact_paths` uploads, as the agent does after each job.
        try FileManager.default.copyItem(atPath: fixture.folder + "/shards", toPath: store + "/shards")
        let checkout = fixture.folder + "/report-step"
        try FileManager.default.createDirectory(atPath: checkout, withIntermediateDirectories: true)
        let path = fixture.folder + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let report = try await Self.runDocumented(scripts[1], in: checkout, environment: ["PATH": path, "FAKE_STORE": store])
        #expect(report.status == 1 && report.stdout.contains("Flows failed"), "\(report.stdout)\(report.stderr)")
        try Self.expectWholeMerge(in: checkout)
        #expect(FileManager.default.fileExists(atPath: store + "/report/index.html"), "the report was uploaded")
        let calls = try String(contentsOfFile: store + "/agent-calls.txt", encoding: .utf8)
        #expect(calls == "artifact download shards/**/* .\nartifact upload report/**/*\n")
    }

    /// CircleCI's own split starts from `--list`; a stand-in `circleci` hands this node all of it.
    @Test func theCircleCISplitStartsFromTheList() async throws {
        let fixture = try Self.makeSuite()
        defer { fixture.remove() }
        let block = try #require(try Self.blocks("sh", section: "CircleCI").first)
        try fixture.write("#!/bin/sh\ncat\n", at: "bin/circleci", executable: true)
        let path = fixture.folder + "/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let output = try await Self.runDocumented(block.text, in: fixture.folder, environment: ["PATH": path])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")  // the failing flow
        #expect(output.lastLine == "5 passed, 1 failed")
        #expect(try JUnitReader.read(path: fixture.folder + "/test-results/junit.xml").tests == 6)
    }
}
