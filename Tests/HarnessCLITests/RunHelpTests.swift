import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// `harness run --help` lists every command of the keyword table, with its forms, phase and summary.
@Suite struct RunHelpTests {
    @Test func helpListsEveryKeywordOfTheTable() async throws {
        let output = try await runHarness(["run", "--help"], in: "/")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("usage: harness run PATHS..."))
        let lines = Set(output.stdout.split(separator: "\n").map(String.init))
        for keyword in FlowKeyword.allCases {
            for usage in keyword.usages {
                #expect(lines.contains("  " + usage), "missing \(usage)")
            }
            let definition = keyword.definition
            #expect(lines.contains("      \(definition.summary) [\(definition.phase)]"), "missing the summary of \(keyword.rawValue)")
        }
        #expect(lines.contains(#"  expect-gone "text"|/regex/ [in AREA] [within DURATION]"#))
    }
}
