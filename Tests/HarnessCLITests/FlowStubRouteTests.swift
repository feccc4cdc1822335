import Foundation
import Testing
import Harness
@testable import HarnessFlows

/// Flow stubs as rich as Swift's: routes chosen by query, headers and body, `expect-request` on
/// what the app sent, the unmatched requests in a failed step, and the stub server's URL in the
/// program's arguments. The program is curl, which takes the URL as an argument.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"))) struct FlowStubRouteTests {
    /// curl posting `body` as JSON to the stub server's `/items`, printing the answer.
    static func post(_ body: String) -> String {
        "app curl -s -X POST -H \"Content-Type: application/json\" -d \(FlowStringLiteral.quote(body)) ${HARNESS_NETWORK}/items\n"
    }

    @Test func theStubServersURLIsExpandedInTheAppsArguments() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app curl -s ${HARNESS_NETWORK}/x
            stub GET /x 200 text "hello from x"
            launch
            expect "hello from x"
            """)
        #expect(outcome == .passed)
    }

    @Test func aFlowAssertsThePostedBody() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        try fixture.write(#"{"done": false, "title": "Milk"}"#, at: "new.json")
        try fixture.write(#"{"title": "Eggs", "done": false}"#, at: "other.json")
        let passed = try await fixture.run(Self.post(#"{"title": "Milk", "done": false}"#) + """
            stub POST /items 201 text "created"
            launch
            expect "created"
            expect-request POST /items body json new.json
            expect-request POST /items header Content-Type "application/json" body contains "Milk" count 1
            expect-request POST /items body /.*Eggs.*/ count 0
            """)
        #expect(passed == .passed)

        let outcome = try await fixture.run(Self.post(#"{"title": "Milk", "done": false}"#) + """
            stub POST /items 201 text "created"
            launch
            expect "created"
            expect-request POST /items body json other.json
            """)
        let failed = try #require(failure(of: outcome))
        #expect(failed.position?.line == 5)
        #expect(failed.message.contains("the stub server received 0 such requests, expected at least 1"), "\(failed.message)")
        #expect(failed.message.contains("Closest requests that did not match"), "\(failed.message)")
        #expect(failed.message.contains("✗ body: expected JSON equal to"), "\(failed.message)")
    }

    @Test func aStubAnswersByTheBody() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let routes = """
            stub POST /items body contains "Milk" 201 text "milk route"
            stub POST /items body contains "Eggs" 409 text "eggs route"
            launch

            """
        let eggs = try await fixture.run(Self.post(#"{"title": "Eggs"}"#) + routes + #"expect "eggs route""#)
        #expect(eggs == .passed)
        let milk = try await fixture.run(Self.post(#"{"title": "Milk"}"#) + routes + #"expect "milk route""#)
        #expect(milk == .passed)
    }

    @Test func aFailedStepListsTheRequestsNoRouteMatched() async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let outcome = try await fixture.run("""
            app curl -s ${HARNESS_NETWORK}/itemz?page=2
            stub GET /items 200 text "the items"
            launch
            expect "the items"
            """)
        let failed = try #require(failure(of: outcome))
        #expect(failed.message.contains("The stub server answered 1 request with 404: no route matched it."), "\(failed.message)")
        #expect(failed.message.contains("GET /itemz?page=2"), "\(failed.message)")
        #expect(failed.message.contains("Closest stubs:"), "\(failed.message)")
        #expect(failed.message.contains("stub GET /items"), "\(failed.message)")
        #expect(failed.message.contains("✗ path"), "\(failed.message)")
    }
}
