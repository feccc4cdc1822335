import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// `expect-not ... in AREA` and `expect-not ... style ...`, run against StyleFlowTests' program
/// (rows: 0 "Todos CLOCK", 1 "apples", 2 "Oops" with the SGR given, 3 "milk", 4 "q quit").
@Suite struct ExpectNotStyleFlowTests {
    @Test func textOutsideTheAreaOrInAnotherStylePasses() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await StyleFlowTests.run(sgr: "1;31", """
            expect-not "Oops" in rows 3-4
            expect-not "milk" in rows 0-2
            expect-not "Oops" style inverse
            expect-not /O.ps/ style bold fg=green
            expect-not "Oops" in rows 0-1 style bold
            expect-not "apples" in between "Oops" and "q quit"
            """, fixture: fixture)
        #expect(outcome == .passed)
    }

    @Test(arguments: [
        (#"expect-not "Oops" in rows 1-2"#, #"expect-not "Oops" in rows 1-2: the screen shows it in rows 1-2"#),
        (#"expect-not "Oops" style bold fg=red"#, #"expect-not "Oops" style bold fg=red: the screen shows it styled bold fg=red"#),
        (#"expect-not /O.ps/ in rows 2 style fg=1"#, #"expect-not /O.ps/ in rows 2 style fg=red: the screen shows it in rows 2-2 styled fg=red"#),
    ])
    func textShownThereInThatStyleFails(check: String, message: String) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let failed = try #require(failure(of: try await StyleFlowTests.run(sgr: "1;31", check, fixture: fixture)))
        #expect(failed.position?.line == 5)
        #expect(failed.message.hasPrefix(message + "\n"), "\(failed.message)")
        #expect(failed.message.contains("│Oops"), "the failure shows the screen: \(failed.message)")
    }
}
