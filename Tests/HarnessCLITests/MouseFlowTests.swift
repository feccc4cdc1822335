import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessFlows
@testable import HarnessSteps

/// Flows that click: the bundled dialog flow passes, and fails when it clicks the wrong item;
/// a click into a program without mouse reporting fails the step with the screen.
@Suite struct MouseFlowTests {
    static let dialogFlow = """
        app dialog --stdout --menu "Pick a vegetable" 12 40 3 apple "A fruit" bean "A legume" carrot "A root"
        size 60x16
        launch
        expect "carrot"
        click CHOICE
        press enter
        exit 0
        expect-output /bean\\z/
        """

    @Test(.enabled(if: isInstalled("dialog"), "dialog is not installed"))
    func theDialogFlowPassesWhenItClicksTheRightItem() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run(Self.dialogFlow.replacingOccurrences(of: "CHOICE", with: #""bean""#))
        #expect(outcome == .passed)
    }

    @Test(.enabled(if: isInstalled("dialog"), "dialog is not installed"), arguments: [#""carrot""#, #""apple""#, "6,22"])
    func theDialogFlowFailsWhenItClicksAnotherItem(target: String) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run(Self.dialogFlow.replacingOccurrences(of: "CHOICE", with: target))
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == 8)
        #expect(failed.message.hasPrefix(#"expect-output /bean\z/: The program exited with code 0 while waiting for output matching /bean\z/."#))
    }

    @Test func clickingAProgramWithoutMouseReportingFailsTheStep() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "echo ready; read x"
            launch
            expect "ready"
            click "ready"
            """)
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == 4)
        #expect(failed.message.hasPrefix(#"click "ready": Cannot click "ready": the app did not enable mouse reporting; it cannot be clicked"#))
        #expect(failed.message.contains("Screen:\n┌"))
        #expect(failed.message.components(separatedBy: "Screen:").count == 2, "the screen is shown once")
    }

    @Test func clickingTextThatIsNotOnTheScreenFailsTheStep() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app sh -c "printf '\\\\033[?1000h'; echo ready; read x"
            launch
            expect "ready"
            double-click "steady"
            """)
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == 4)
        #expect(failed.message.hasPrefix(#"double-click "steady": Cannot find "steady" on the screen"#))
        #expect(failed.message.contains("│ready"))
    }
}
