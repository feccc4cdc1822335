import Foundation
import Testing
@testable import Stubs

@Suite struct RequestPatternTests {
    private let request = RecordedRequest(
        method: "POST", target: "/api/todos/42?page=2&sort=title",
        headers: ["Accept": "application/json", "X-Token": "abc"],
        body: Data(#"{"title": "Milk", "done": false}"#.utf8)
    )

    @Test(arguments: [
        (RequestPattern.post("/api/todos/42"), true),
        (.get("/api/todos/42"), false),
        (.method("post", "/api/todos/42"), true),
        (.post(.prefix("/api/")), true),
        (.post(.prefix("/todos")), false),
        (.post(.regex(#"/api/todos/\d+"#)), true),
        (.post(.regex(#"/todos/\d+"#)), false),
        (.any.withQuery("page", "2"), true),
        (.any.withQuery("page", "3"), false),
        (.any.withQuery("sort", .contains("tit")), true),
        (.any.withQuery("missing", .absent), true),
        (.any.withQuery("page", .absent), false),
        (.any.withHeader("accept", .matches("application/.*")), true),
        (.any.withHeader("X-Token", .present), true),
        (.any.withHeader("X-Other", .present), false),
        (.any.withBody(.contains("Milk")), true),
        (.any.withBody(.jsonEqual(#"{"done": false, "title": "Milk"}"#)), true),
        (.any.withBody(.jsonEqual(#"{"done": true, "title": "Milk"}"#)), false),
        (.any.withBody(.jsonEqual("{not json")), false),
        (.any.withBody(.exact(#"{"title": "Milk", "done": false}"#)), true),
        (.any.withBody(.exact("other")), false),
    ])
    func matches(pattern: RequestPattern, expected: Bool) {
        #expect(pattern.matches(request) == expected, "\(pattern)")
    }

    @Test func listsEveryDifference() {
        let pattern = RequestPattern.get("/api/todos").withQuery("page", "3").withHeader("Accept", "text/plain")
            .withBody(.jsonEqual(#"{"title": "Eggs", "done": false}"#))
        let differences = pattern.differences(from: request).map(\.description)
        #expect(differences == [
            "method: expected GET, was POST",
            #"path: expected exactly "/api/todos", was "/api/todos/42""#,
            #"query page: expected = "3", was "2""#,
            #"header Accept: expected = "text/plain", was "application/json""#,
            #"body: expected JSON equal to {"done":false,"title":"Eggs"}: $.title is "Milk", expected "Eggs""#,
        ])
    }

    @Test func nearMissReportRanksTheClosestStubFirst() {
        let report = NearMissReport(
            request: RecordedRequest(method: "GET", target: "/todo"),
            stubs: [
                (StubID("far"), .post("/users").withHeader("X", "y"), false),
                (StubID("close"), .get("/todos"), false),
                (StubID("method"), .post("/todo"), false),
            ]
        )
        #expect(report.nearMisses.map(\.stubID) == ["method", "close", "far"])
        #expect(report.description.contains("✗ path: expected exactly \"/todos\", was \"/todo\""))
        #expect(report.description.contains("✗ method: expected POST, was GET"))
    }

    @Test func verificationErrorListsReceivedRequestsAndNearMisses() {
        let received = [
            RecordedRequest(sequenceNumber: 1, method: "GET", target: "/todo"),
            RecordedRequest(sequenceNumber: 2, method: "GET", target: "/users"),
        ]
        let error = StubVerificationError(pattern: .get("/todos"), expected: .exactly(1), actualCount: 0, received: received)
        let message = error.description
        #expect(message.contains("Expected exactly 1 request(s) matching GET /todos, but 0 matched."))
        #expect(message.contains("✗ #1 GET /todo (no stub matched)"))
        #expect(message.contains("Closest requests that did not match:\n  1. #1 GET /todo"))
        #expect(message.contains(#"✗ path: expected exactly "/todos", was "/todo""#))
    }

    @Test(arguments: [
        (RequestCount.exactly(2), 2, true), (.exactly(2), 3, false), (.atLeast(2), 5, true), (.atLeast(2), 1, false),
        (.atMost(1), 0, true), (.atMost(1), 2, false), (.never, 0, true), (.once, 1, true),
    ])
    func requestCounts(count: RequestCount, actual: Int, satisfied: Bool) {
        #expect(count.isSatisfied(by: actual) == satisfied)
    }

    @Test func registryPrefersLowerPriorityThenLatest() throws {
        var registry = StubRegistry()
        let request = RecordedRequest(method: "GET", target: "/todos")
        registry.add(id: "old", pattern: .get("/todos"), behaviour: .hang, priority: 5, uses: nil)
        registry.add(id: "new", pattern: .any, behaviour: .hang, priority: 5, uses: nil)
        #expect(registry.match(request, matchCounts: [:])?.id == "new")
        registry.add(id: "important", pattern: .get("/todos"), behaviour: .hang, priority: 1, uses: 1)
        registry.add(id: "newest-but-low", pattern: .get("/todos"), behaviour: .hang, priority: 9, uses: nil)
        let important = try #require(registry.match(request, matchCounts: [:]))
        #expect(important.id == "important")
        #expect(registry.match(request, matchCounts: [important.order: 1])?.id == "new", "the one-use stub is used up")
    }

    @Test func sequencesRepeatTheLastStep() {
        var registry = StubRegistry()
        let request = RecordedRequest(method: "GET", target: "/")
        registry.add(id: "s", pattern: .any, behaviour: .sequence([.status(500), .status(503), .status(200)]), priority: 5, uses: nil)
        let statuses = (0..<5).map { matches -> Int in
            guard case .respond(let response) = registry.match(request, matchCounts: [1: matches])!.behaviour.resolved(forMatch: matches).kind
            else { return -1 }
            return response.status
        }
        #expect(statuses == [500, 503, 200, 200, 200])
    }
}
