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

        let added = try await curl(["-X", "POST", "-w", "\n%{http_code}", "-H", "Content-Type: application/json", "-d",
                              #"{"id": "added", "request": {"method": "GET", "path": "/new"}, "response": {"status": 202, "body": "new"}}"#,
                              admin + "/mappings"])
        #expect(added.stdout.hasSuffix("201"), "\(added.stdout)")
        #expect(try await curl(["-w", " %{http_code}", server.baseURL.absoluteString + "/new"]).stdout == "new 202")

        let invalid = try await curl(["-X", "POST", "-w", "\n%{http_code}", "-H", "Content-Type: application/json", "-d", #"{"request": {"path": "/x"}, "response": {"status": 9000}}"#, admin + "/mappings"])
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

    @Test(arguments: [
        ["--port", "x"], ["--bogus"], [], ["--mappings", "/nonexistent/m.json"], ["--mappings", "m.json", "--host", "example.com"],
        ["--mappings", "m.json", "--request-timeout", "0"], ["--mappings", "m.json", "--request-timeout", "x"],
        ["--mappings", "m.json", "--files", "/nonexistent-folder"],
    ])
    func badArgumentsFail(arguments: [String]) async throws {
        let output = try await runProduct("stub-server", arguments)
        #expect(output.status != 0)
        #expect(!output.stderr.isEmpty)
        #expect(output.stdout.isEmpty)
    }

    // MARK: - Who can reach it, and what it serves

    /// The attack: any local program (or a web page) POSTs a mapping whose bodyFile is a secret
    /// outside the mapping file's folder, then GETs it.
    @Test func aMappingCannotServeAFileOutsideTheMappingFolder() async throws {
        try await withTemporaryDirectory { folder in
            let mappingFile = try writeFile(#"{"mappings": []}"#, at: "stubs/mappings.json", in: folder.path)
            let secret = try writeFile("TOP SECRET", at: "secret.txt", in: folder.path)
            let server = try await Self.start(["--mappings", mappingFile])
            let base = server.baseURL.absoluteString
            for (contentType, status) in [("text/plain", "415"), ("application/json", "400")] {
                for bodyFile in [secret, "../secret.txt", "/proc/self/environ"] {
                    let posted = try await curl([
                        "-H", "Content-Type: \(contentType)", "-w", "\n%{http_code}",
                        "-d", #"{"request": {"path": "/pw"}, "response": {"bodyFile": "\#(bodyFile)"}}"#, base + "/__admin/mappings",
                    ])
                    #expect(posted.stdout.hasSuffix(status), "\(contentType) \(bodyFile): \(posted.stdout)")
                    if contentType == "application/json" {
                        #expect(posted.stdout.contains(#"bodyFile: \"\#(bodyFile)\""#) && posted.stdout.contains("(body files must stay inside ") && posted.stdout.contains("/stubs)"),
                                "\(posted.stdout)")
                    }
                    let read = try await curl(["-w", "\n%{http_code}", base + "/pw"])
                    #expect(read.stdout.hasSuffix("404") && !read.stdout.contains("TOP SECRET"), "\(read.stdout)")
                }
            }
            #expect(try await server.stop() == .exited(0))
        }
    }

    /// `--files DIR`: bodyFile paths are relative to DIR and stay inside it.
    @Test func bodyFilesComeFromTheFilesFolder() async throws {
        try await withTemporaryDirectory { folder in
            try writeFile("from files", at: "files/page.txt", in: folder.path)
            try writeFile("beside the mappings", at: "mappings/beside.txt", in: folder.path)
            let good = try writeFile(#"{"mappings": [{"request": {"path": "/page"}, "response": {"bodyFile": "page.txt"}}]}"#,
                                     at: "mappings/good.json", in: folder.path)
            let files = folder.appendingPathComponent("files").path
            let server = try await Self.start(["--mappings", good, "--files", files])
            #expect(try await curl([server.baseURL.absoluteString + "/page"]).stdout == "from files")
            #expect(try await server.stop() == .exited(0))

            // The reader stub-server uses (run in process: a server that wrongly started would never exit).
            let bad = try writeFile(#"{"mappings": [{"request": {"path": "/b"}, "response": {"bodyFile": "../mappings/beside.txt"}}]}"#,
                                    at: "mappings/bad.json", in: folder.path)
            let refused = try #require(throws: StubMappingError.self) {
                try StubMappingFile.load(URL(fileURLWithPath: bad), filesDirectory: URL(fileURLWithPath: files))
            }
            #expect(refused.description.contains(#"$.mappings[0].response.bodyFile: "../mappings/beside.txt" leaves the folder"#),
                    "\(refused)")
        }
    }

    @Test func noAdminMakesAdminPathsOrdinaryRequests() async throws {
        let server = try await Self.start(["--mappings", Self.fixtures.appendingPathComponent("mappings.json").path, "--no-admin"])
        let listed = try await curl(["-w", "\n%{http_code}", server.baseURL.absoluteString + "/__admin/mappings"])
        #expect(listed.stdout.hasPrefix("No stub matched this request."), "\(listed.stdout)")
        #expect(listed.stdout.hasSuffix("404"))
        #expect(try await server.stop() == .exited(0))
    }

    @Test(arguments: ["0.0.0.0", "::", "192.0.2.1"])
    func aHostThatIsNotLoopbackNeedsAllowRemote(host: String) async throws {
        let output = try await runProduct("stub-server", ["--mappings", "/nonexistent/m.json", "--host", host])
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.hasPrefix("stub-server: refusing to listen on \(host): it is not a loopback address"), "\(output.stderr)")
        #expect(output.stderr.contains("pass --allow-remote"))
    }

    @Test func allowRemoteListensEverywhereAndWarns() async throws {
        let server = try await Self.start(
            ["--mappings", Self.fixtures.appendingPathComponent("mappings.json").path, "--host", "0.0.0.0", "--allow-remote"])
        #expect(server.baseURL.host == "0.0.0.0")
        #expect(try await server.stop() == .exited(0))
        let errors = String(decoding: server.session.standardErrorSoFar, as: UTF8.self)
        #expect(errors.hasPrefix("stub-server: warning: listening on 0.0.0.0, which is not loopback (--allow-remote)"), "\(errors)")
        #expect(errors.contains("add --no-admin"))
    }

    @Test func requestTimeoutAnswers408ToAPartialRequest() async throws {
        let server = try await Self.start(
            ["--mappings", Self.fixtures.appendingPathComponent("mappings.json").path, "--request-timeout", "0.1"])
        let url = server.baseURL
        let response = try await offPool { () -> RawClient.Response in
            let client = try RawClient(host: StubHost(url.host ?? "127.0.0.1"), port: UInt16(url.port ?? 80))
            try client.send("GET /todos HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: aaa")
            return try client.readResponse(timeout: StubServerProcess.patience)
        }
        #expect(response.status == 408)
        #expect(try await server.stop() == .exited(0))
    }
}
