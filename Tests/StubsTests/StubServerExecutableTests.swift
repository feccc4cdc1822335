import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import HarnessCore
@testable import Stubs

/// The standalone `stub-server` executable, run as a subprocess and driven with curl.
@Suite struct StubServerExecutableTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func servesTheMappingFileAndStopsCleanlyOnSIGTERM() async throws {
        let server = try await Self.start(["--mappings", Self.fixtures.appendingPathComponent("mappings.json").path])
        let base = server.baseURL.absoluteString
        #expect(base.hasPrefix("http://127.0.0.1:"))

        let todos = try await curl([base + "/todos"])
        #expect(todos.stdout.contains("Walk the dog"), "stderr: \(todos.stderr)")
        let created = try await curl(["-H", "Content-Type: application/json", "-d", #"{ "title" : "Buy milk" }"#, "-w", "\n%{http_code}", base + "/todos"])
        #expect(created.stdout == #"{"done":false,"id":3,"title":"Buy milk"}"# + "\n201")
        let flaky = try await curl(["-w", " %{http_code}", base + "/flaky/x?attempt=1", base + "/flaky/x?attempt=2", base + "/flaky/x?attempt=3"])
        #expect(flaky.stdout == "try again 500ok 200ok 200")
        #expect(try await curl([base + "/slow/12"]).stdout == "slow")
        #expect(try await curl(["-w", "%{http_code}", base + "/drop"]).stdout == "000")
        #expect(try await curl([base + "/once"]).stdout == "only once")
        let unmatched = try await curl(["-w", "\n%{http_code}", base + "/once"])
        #expect(unmatched.stdout.hasSuffix("404"))
        #expect(unmatched.stdout.contains("matches, but its uses are used up"))

        #expect(try await server.stop(signal: SIGTERM) == .exited(0))
    }

    /// Starts the executable off the cooperative pool (it waits for the first line it prints).
    static func start(_ arguments: [String]) async throws -> StubServerProcess {
        try await offPool { try StubServerProcess(arguments: arguments) }
    }

    @Test func stopsCleanlyOnSIGINTWhileAClientHangs() async throws {
        let server = try await Self.start(["--mappings", Self.fixtures.appendingPathComponent("mappings.json").path, "--port", "0"])
        let url = server.baseURL
        let closed = try await offPool { () -> Bool in
            let client = try RawClient(host: StubHost(url.host ?? "127.0.0.1"), port: UInt16(url.port ?? 80))
            try client.send("GET /hang HTTP/1.1\r\n\r\n")
            server.signal(SIGINT)
            return try client.readToEnd(timeout: StubServerProcess.patience).isEmpty
        }
        let status = try await server.waitForExit()
        #expect(status == .exited(0))
        #expect(closed, "the hanging connection is closed")
    }

    @Test func adminAPIListsAddsRemovesAndResets() async throws {
        let server = try await Self.start(["--mappings", Self.fixtures.appendingPathComponent("mappings.json").path])
        let admin = server.baseURL.absoluteString + "/__admin"
        let listed = try await curl([admin + "/mappings"])
        let mappings = try JSONValue(parsing: listed.stdout)
        guard case .object(let root) = mappings, case .array(let list) = root["mappings"] else {
            Issue.record("unexpected listing \(listed.stdout)")
            return
        }
        #expect(list.count == 7)

        let added = try await curl(["-X", "POST", "-w", "\n%{http_code}", "-d",
                              #"{"id": "added", "request": {"method": "GET", "path": "/new"}, "response": {"status": 202, "body": "new"}}"#,
                              admin + "/mappings"])
        #expect(added.stdout.hasSuffix("201"), "\(added.stdout)")
        #expect(try await curl(["-w", " %{http_code}", server.baseURL.absoluteString + "/new"]).stdout == "new 202")

        let invalid = try await curl(["-X", "POST", "-w", "\n%{http_code}", "-d", #"{"request": {"path": "/x"}, "response": {"status": 9000}}"#, admin + "/mappings"])
        #expect(invalid.stdout.hasSuffix("400"))
        #expect(invalid.stdout.contains("$.response.status: expected an integer from 100 to 599, found 9000"))

        let requests = try await curl([admin + "/requests"])
        #expect(requests.stdout.contains(#""url" : "/new""#))
        #expect(requests.stdout.contains(#""stubId" : "added""#))

        #expect(try await curl(["-X", "DELETE", "-w", " %{http_code}", admin + "/mappings/added"]).stdout.hasSuffix(" 200"))
        #expect(try await curl(["-X", "DELETE", "-w", " %{http_code}", admin + "/mappings/added"]).stdout.hasSuffix(" 404"))
        #expect(try await curl(["-o", "/dev/null", "-w", "%{http_code}", server.baseURL.absoluteString + "/new"]).stdout == "404")

        #expect(try await curl(["-X", "DELETE", "-w", " %{http_code}", admin + "/requests"]).stdout.hasSuffix(" 200"))
        #expect(try await curl([admin + "/requests"]).stdout.contains(#""requests" : ["#))
        #expect(!(try await curl([admin + "/requests"]).stdout.contains("/new")))

        // Reset restores the file's mappings.
        _ = try await curl(["-X", "DELETE", admin + "/mappings"])
        #expect(try await curl(["-o", "/dev/null", "-w", "%{http_code}", server.baseURL.absoluteString + "/todos"]).stdout == "404")
        _ = try await curl(["-X", "POST", admin + "/reset"])
        #expect(try await curl(["-o", "/dev/null", "-w", "%{http_code}", server.baseURL.absoluteString + "/todos"]).stdout == "200")
        #expect(try await curl(["-o", "/dev/null", "-w", "%{http_code}", admin + "/nothing"]).stdout == "404")
        #expect(try await server.stop() == .exited(0))
    }

    @Test func invalidMappingFileIsRejectedBeforeServing() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("bad.json")
            try Data(#"{"mappings": [{"request": {"path": "/ok"}, "response": {}}, {"request": {"method": "GET", "pth": "/x"}, "response": {"status": "abc"}}]}"#.utf8)
                .write(to: file)
            let output = try await runProduct("stub-server", ["--mappings", file.path])
            #expect(output.status == 1)
            #expect(output.stdout.isEmpty, "no base URL is printed")
            #expect(output.stderr.contains("\(file.path): $.mappings[1].request.pth: unknown key (did you mean \"path\"?)"))
            #expect(output.stderr.contains("\(file.path): $.mappings[1].response.status: expected an integer from 100 to 599, found \"abc\""))
        }
    }

    @Test(arguments: [["--port", "x"], ["--bogus"], [], ["--mappings", "/nonexistent/m.json"], ["--mappings", "m.json", "--host", "example.com"]])
    func badArgumentsFail(arguments: [String]) async throws {
        let output = try await runProduct("stub-server", arguments)
        #expect(output.status != 0)
        #expect(!output.stderr.isEmpty)
        #expect(output.stdout.isEmpty)
    }
}
