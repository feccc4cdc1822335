import Testing
import Harness
@testable import HarnessFlows

/// The conditions of `stub` routes and `expect-request` lines: query, headers, body.
@Suite struct FlowRequestMatchParsingTests {
    static let directory = "/flows"

    @Test func aStubRouteKeepsItsConditions() throws {
        let script = try parseFlow(setup: [
            #"stub POST /items query dry "1" header Accept contains "json" header X-Id /[0-9]+/ body json new.json 201 text "made""#,
            #"stub POST /items body contains "Eggs" 409"#,
        ])
        #expect(script.stubs.count == 2)
        let first = try #require(script.stubs.first)
        #expect(first.match.query == [FlowNamedMatch(name: "dry", value: .equals("1"))])
        #expect(first.match.headers == [FlowNamedMatch(name: "Accept", value: .contains("json")),
                                        FlowNamedMatch(name: "X-Id", value: .regex("[0-9]+"))])
        #expect(first.match.body == .json(FlowFileReference(written: "new.json", directory: Self.directory)))
        #expect(first.response == .respond(status: 201, body: .text("made"), delay: nil))
        #expect(script.stubs.last?.match.body == .contains("Eggs"))
    }

    @Test func expectRequestReadsItsConditionsAndCount() throws {
        let script = try parseFlow(after: [#"expect-request POST /items body contains "Milk" count 2"#,
                                           "expect-request GET /items"])
        let commands = script.stepsAfterLaunch.map(\.command)
        #expect(commands == [
            .expectRequest(FlowRequestExpectation(method: "POST", path: "/items",
                                                  match: { var m = FlowRequestMatch(); m.body = .contains("Milk"); return m }(), count: 2)),
            .expectRequest(FlowRequestExpectation(method: "GET", path: "/items", match: FlowRequestMatch(), count: nil)),
        ])
    }

    @Test func routesThatDifferByTheirConditionsAreNotDuplicates() {
        #expect(parseErrors("app ./t\nstub POST /items body contains \"a\" 201\nstub POST /items body contains \"b\" 409\nlaunch") == [])
        #expect(parseErrors("app ./t\nstub POST /items body contains \"a\" 201\nstub POST /items body contains \"a\" 409\nlaunch")
                == [#"3:1: stub POST /items body contains "a" already given on line 2"#])
    }

    @Test(arguments: [
        (#"stub POST /items body"#, "2:22: stub: missing json FILE, contains \"TEXT\" or /regex/"),
        (#"stub POST /items body maybe 201"#, #"2:23: unexpected "maybe" (expected json FILE, contains "TEXT" or /regex/)"#),
        (#"stub POST /items header Accept json 201"#, #"2:32: unexpected "json" (expected "VALUE", contains "TEXT" or /regex/)"#),
        (#"stub POST /items body contains "a" body contains "b" 201"#, #"2:36: unexpected "body" (expected one body condition per line)"#),
    ])
    func aMalformedConditionIsAnError(line: String, error: String) {
        #expect(parseErrors("app ./t\n\(line)\nlaunch").first == error)
    }

    @Test func expectRequestRefusesAnUnknownOption() {
        #expect(parseErrors("app ./t\nstub GET /x 200\nlaunch\nexpect-request GET /x within 2s")
                == [#"4:23: unexpected "within" (expected query, header, body, count N or the end of the line)"#])
    }
}
