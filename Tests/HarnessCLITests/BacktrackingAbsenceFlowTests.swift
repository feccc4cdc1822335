import Foundation
import Testing
import Harness
@testable import HarnessCore
@testable import HarnessFlows
@testable import HarnessSteps

/// The checks that pass when a pattern is absent (`expect-gone`, `expect-not`, `expect-not ...
/// for`, `expect-output-not`) match a regex until their limit, like every wait, and count a
/// match still running then as present: `(a*)*b` against rows of `a` backtracks for longer
/// than any night, and "could not tell" must fail the step, never pass it.
@Suite(.timeLimit(.minutes(2))) struct BacktrackingAbsenceFlowTests {
    /// Three full rows of `a`, then a line the flow waits for first.
    static let flowStart = """
        app sh -c "echo \(String(repeating: "a", count: 240)); echo ready; read x"
        size 80x6
        launch
        expect "ready"
        """

    @Test(arguments: [
        ("expect-gone /(a*)*b/ within 300ms", "waiting for the screen to stop showing /(a*)*b/"),
        ("timeout 300ms\nexpect-not /(a*)*b/", "the screen shows it"),
        ("expect-not /(a*)*b/ for 300ms", "the screen showed it"),
        ("timeout 300ms\nexpect-output-not /(a*)*b/", "could not be ruled out"),
    ])
    func aBacktrackingPatternFailsTheAbsenceCheck(check: String, says: String) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run(Self.flowStart + "\n" + check)
        let failed = try #require(failure(of: outcome), "an undecided absence check passed")
        #expect(failed.message.contains(says), "\(failed.message)")
    }

    @Test func decidingSaysWhenTheDeadlinePassedFirst() throws {
        let rows = String(repeating: "a", count: 200)
        #expect(try CompiledRegex(lines: "(a*)*b").within(.zero).decides(rows) == nil)
        #expect(try CompiledRegex(lines: "a+").within(.seconds(60)).decides(rows) == true)
        #expect(try CompiledRegex(lines: "b").within(.seconds(60)).decides(rows) == false)
        #expect(try CompiledRegex(lines: "b").decides(rows) == false)
    }
}
