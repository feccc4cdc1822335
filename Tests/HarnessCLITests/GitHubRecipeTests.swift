import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// docs/NIGHTLY.md's GitHub Actions recipe for flows, its scripts run as written (through `sh`,
/// the suite and `harness` being this test's), each job in its own folder, the Actions cache a
/// folder of entries: three shards plan from last night's history, the merge saves tonight's,
/// and a re-run of shard 2 (same run id) restores tonight's history and the first attempt's
/// plan, and takes exactly the part shard 2 took the first time. A merge without a shard fails,
/// still writes the report marked incomplete, and the verdict fails on it.
@Suite struct GitHubRecipeTests {
    /// The `run: |` script of the step named `name` in the recipe's flows job.
    static func script(named name: String) throws -> String {
        let text = try DocumentedExamples.read("docs/NIGHTLY.md", fromTestFile: #filePath)
        let yaml = try #require(DocumentedExamples.blocks(in: text, document: "docs/NIGHTLY.md", language: "yaml", section: "GitHub Actions").first).lines
        let step = try #require(yaml.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "- name: \(name)" }, "no step \(name)")
        let run = try #require(yaml[step...].firstIndex { $0.trimmingCharacters(in: .whitespaces).hasPrefix("run:") })
        let line = yaml[run]
        let indent = line.prefix { $0 == " " }.count
        let inline = line.trimmingCharacters(in: .whitespaces).dropFirst("run:".count).trimmingCharacters(in: .whitespaces)
        guard inline == "|" else { return inline }
        return yaml[(run + 1)...].prefix { $0.prefix { $0 == " " }.count > indent }.map { String($0.dropFirst(indent + 2)) }
            .joined(separator: "\n")
    }

    /// One job's fresh checkout: the suite's six flows.
    static func checkout(_ folder: String) throws {
        for index in 1...6 {
            _ = try writeFile("app sh -c \"echo flow-\(index); exec cat\"\nlaunch\nexpect \"flow-\(index)\"\n",
                              at: "suite/f\(index).flow", in: folder)
        }
    }

    static func copy(_ source: String, to destination: String) throws {
        try FileManager.default.createDirectory(atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }

    @Test func aReRunShardTakesTheFirstAttemptsPartAndAnIncompleteMergeFailsTheVerdict() async throws {
        let runShard = try Self.script(named: "Run shard ${{ matrix.shard }}")
        let keepPlan = try Self.script(named: "Keep the plan")
        let merge = try Self.script(named: "Merge the shards")
        let verdict = try Self.script(named: "Verdict")
        #expect(runShard.contains("--plan") && merge.contains("--allow-partial"))
        try await withTemporaryDirectory(prefix: "github-recipe") { root in
            let root = root.path
            // The cache: last night's history, f1 the longest ... f6 the shortest.
            let names = (1...6).map { "suite/f\($0).flow" }
            let lastNight = names.enumerated().map { FlowHistory.Entry(path: $1, status: .passed, seconds: Double(60 - 10 * $0), attempts: 1) }
            try FlowHistory(directory: root + "/cache/flow-history-last-night").append(FlowHistory.Run(date: Date(), flows: lastNight))

            func shard(_ index: Int, job: String) async throws -> ProgramOutput {
                let folder = root + "/" + job
                let output = try await NightlyRecipeTests.runDocumented(
                    runShard.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(index)"), in: folder,
                    environment: ["HARNESS_SHARD_INDEX": "\(index)", "HARNESS_SHARD_TOTAL": "3"])
                #expect(output.status == 0, "\(job): \(output.stdout)\(output.stderr)")
                return output
            }

            // Attempt 1: no plan in the cache; each shard keeps its plan, the first save wins.
            var firstParts: [[String]] = []
            for index in 1...3 {
                let job = root + "/attempt1-shard-\(index)"
                try Self.checkout(job)
                try Self.copy(root + "/cache/flow-history-last-night", to: job + "/flow-history")
                let output = try await shard(index, job: "attempt1-shard-\(index)")
                #expect(output.stdout.contains(", balanced by earlier durations"), "\(output.stdout)")
                firstParts.append(try RunReportWriter.read(folder: job + "/shard-\(index)").flows.map(\.path))
                let kept = try await NightlyRecipeTests.runDocumented(keepPlan.replacingOccurrences(of: "${{ matrix.shard }}", with: "\(index)"), in: job)
                #expect(kept.status == 0, "\(kept.stderr)")
                if !FileManager.default.fileExists(atPath: root + "/cache/flow-plan-run") {
                    try Self.copy(job + "/flow-plan", to: root + "/cache/flow-plan-run")
                }
            }
            #expect(firstParts.flatMap { $0 }.sorted() == names)

            // The merge: last night's history in, tonight's out (what a re-run restores).
            func mergeJob(_ name: String, shards: [Int: String]) async throws -> ProgramOutput {
                let job = root + "/" + name
                try Self.checkout(job)
                try Self.copy(root + "/cache/flow-history-last-night", to: job + "/flow-history")
                for (index, folder) in shards { try Self.copy(folder, to: job + "/shards/shard-\(index)") }
                return try await NightlyRecipeTests.runDocumented(merge, in: job)
            }
            let merged = try await mergeJob("attempt1-report", shards: [1: root + "/attempt1-shard-1/shard-1",
                                                                        2: root + "/attempt1-shard-2/shard-2",
                                                                        3: root + "/attempt1-shard-3/shard-3"])
            #expect(merged.status == 0, "\(merged.stdout)\(merged.stderr)")
            try Self.copy(root + "/attempt1-report/flow-history", to: root + "/cache/flow-history-run")
            #expect(try FlowHistory(directory: root + "/cache/flow-history-run").runs().count == 2)

            // Re-run shard 2: the exact keys hit, tonight's history and the first plan.
            let rerun = root + "/attempt2-shard-2"
            try Self.checkout(rerun)
            try Self.copy(root + "/cache/flow-history-run", to: rerun + "/flow-history")
            try Self.copy(root + "/cache/flow-plan-run", to: rerun + "/flow-plan")
            let again = try await shard(2, job: "attempt2-shard-2")
            #expect(again.stdout.contains(", split as planned in \(rerun)/flow-plan/harness-plan.json"), "\(again.stdout)")
            #expect(try RunReportWriter.read(folder: rerun + "/shard-2").flows.map(\.path) == firstParts[1])
            let remerged = try await mergeJob("attempt2-report", shards: [1: root + "/attempt1-shard-1/shard-1", 2: rerun + "/shard-2",
                                                                          3: root + "/attempt1-shard-3/shard-3"])
            #expect(remerged.status == 0, "\(remerged.stdout)\(remerged.stderr)")

            // A shard lost: the merge fails, the report is still written, the verdict is red.
            let partial = try await mergeJob("partial-report", shards: [1: root + "/attempt1-shard-1/shard-1",
                                                                        3: root + "/attempt1-shard-3/shard-3"])
            #expect(partial.status == 1 && partial.stderr.contains("shard 2/3 is missing"), "\(partial.stderr)")
            let judged = try await NightlyRecipeTests.runDocumented(verdict, in: root + "/partial-report")
            #expect(judged.status == 1 && judged.stdout.contains("Flows failed"), "\(judged.stdout)\(judged.stderr)")
        }
    }
}
