import Foundation
import Testing
@testable import Stubs

@Suite struct StubMappingFileTests {
    private let base = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    private func issues(_ json: String) -> [String] {
        do {
            _ = try StubMappingFile.parse(Data(json.utf8), source: "test.json", filesDirectory: base)
            return []
        } catch let error as StubMappingError {
            return error.issues.map(\.description)
        } catch {
            return ["unexpected \(error)"]
        }
    }

    @Test func loadsEveryFeatureOfTheFixture() throws {
        let mappings = try StubMappingFile.load(base.appendingPathComponent("mappings.json"))
        #expect(mappings.map(\.id.rawValue) == ["todos", "create", "flaky", "slow", "hang", "drop", "once"])
        let create = mappings[1]
        #expect(create.priority == 1)
        #expect(create.pattern.matches(RecordedRequest(
            method: "POST", target: "/todos", headers: ["Content-Type": "application/json"], body: Data(#"{"title":"Buy milk"}"#.utf8)
        )))
        #expect(mappings[6].uses == 1)
        #expect(mappings[4].behaviour == .hang)
        #expect(mappings[5].behaviour == .delayed(.milliseconds(10), .closeConnection))
        guard case .respond(let todos) = mappings[0].behaviour.kind, case .bodyFile(let file) = todos.body else {
            Issue.record("bodyFile should become a file body")
            return
        }
        #expect(file.path == "todos.json")
        #expect(try file.resolve().hasSuffix("/Fixtures/todos.json"))
        #expect(todos.headers["Content-Type"] == "application/json")
    }

    @Test(arguments: [
        ("[]", "$: expected an object, found []"),
        ("{}", "$.mappings: missing: a mapping file is {\"mappings\": [ ... ]}"),
        (#"{"mappings": {}}"#, "$.mappings: expected an array, found {}"),
        (#"{"mappings": [{"response": {}}]}"#, "$.mappings[0].request: missing: say what the stub matches, e.g. {\"method\": \"GET\", \"path\": \"/todos\"}"),
        (#"{"mappings": [{"request": {}}]}"#, "$.mappings[0].response: missing: give a \"response\" object or a \"sequence\" array"),
        (#"{"mappings": [{"request": {"path": "x"}, "response": {}}]}"#, "$.mappings[0].request.path: expected a path starting with \"/\", found \"x\""),
        (#"{"mappings": [{"request": {"pathPattern": "("}, "response": {}}]}"#, "$.mappings[0].request.pathPattern: invalid regular expression ("),
        (#"{"mappings": [{"request": {}, "response": {"status": 700}}]}"#, "$.mappings[0].response.status: expected an integer from 100 to 599, found 700"),
        (#"{"mappings": [{"request": {}, "response": {"fault": "explode"}}]}"#, "$.mappings[0].response.fault: expected one of hang, closeConnection, reset, garbage, found \"explode\""),
        (#"{"mappings": [{"request": {}, "response": {"fault": "hang", "status": 200}}]}"#, "$.mappings[0].response: a fault sends no response; remove status"),
        (#"{"mappings": [{"request": {}, "response": {"body": "a", "json": 1}}]}"#, "$.mappings[0].response: has body and json; use only one body"),
        (#"{"mappings": [{"request": {}, "response": {"bodyFile": "missing.json"}}]}"#, "$.mappings[0].response.bodyFile: no such file:"),
        (#"{"mappings": [{"request": {}, "sequence": []}]}"#, "$.mappings[0].sequence: expected a non-empty array of responses, found []"),
        (#"{"mappings": [{"request": {}, "sequence": [{}, {"delayMs": -1}]}]}"#, "$.mappings[0].sequence[1].delayMs: expected milliseconds from 0 to 86400000, found -1"),
        (#"{"mappings": [{"request": {"query": {"a": {"near": "b"}}}, "response": {}}]}"#, "$.mappings[0].request.query.a.near: unknown key"),
        (#"{"mappings": [{"request": {"headers": {"a": 1}}, "response": {}}]}"#, "$.mappings[0].request.headers.a: expected an object, found 1"),
        (#"{"mappings": [{"request": {"body": {"equalTo": 3}}, "response": {}}]}"#, "$.mappings[0].request.body.equalTo: expected a string, found 3"),
        (#"{"mappings": [{"uses": 0, "request": {}, "response": {}}]}"#, "$.mappings[0].uses: expected an integer 1 or more, found 0"),
        (#"{"mappings": [{"id": "a", "request": {}, "response": {}}, {"id": "a", "request": {}, "response": {}}]}"#, "$.mappings[1].id: duplicate id \"a\" (also at $.mappings[0])"),
        (#"{"mappings": [{"request": {}, "response": {"throttle": {"bytes": 0}}}]}"#, "$.mappings[0].response.throttle.bytes: expected an integer from 1 to"),
        ("{not json", "$: not valid JSON"),
    ])
    func invalidFilesNameThePathAndTheProblem(json: String, expected: String) {
        let found = issues(json)
        #expect(found.contains { $0.hasPrefix(expected) }, "got: \(found)")
    }

    @Test func errorDescriptionNamesTheFile() {
        let error = StubMappingError(source: "/tmp/m.json", issues: [.init(path: "$.mappings[2].response.status", problem: "expected an integer")])
        #expect(error.description == "/tmp/m.json: $.mappings[2].response.status: expected an integer")
    }

    @Test func listingRoundTripsThroughTheReader() throws {
        let mappings = try StubMappingFile.load(base.appendingPathComponent("mappings.json"))
        let server = try StubServer()
        defer { server.stop() }
        server.loadMappings(mappings)
        let listed = JSONValue.object(["mappings": .array(server.stubs.map(MappingWriter.json))])
        var encoded = listed
        if case .object(var root) = listed, case .array(let items) = root["mappings"] {
            // matchCount is informational; the reader does not accept it.
            root["mappings"] = .array(items.map { item in
                guard case .object(var object) = item else { return item }
                object["matchCount"] = nil
                return .object(object)
            })
            encoded = .object(root)
        }
        let reread = try StubMappingFile.parse(Data(encoded.jsonText.utf8), source: "listing", filesDirectory: base)
        #expect(reread == mappings)
    }
}
