import Foundation
import Testing
import TodoCore

@Suite struct TodoCommandLineTests {
    @Test(arguments: [
        ([], TodoCommandLine()),
        (["--help"], TodoCommandLine(command: .help)),
        (["-h"], TodoCommandLine(command: .help)),
        (["--version"], TodoCommandLine(command: .version)),
        (["--api-url", "http://127.0.0.1:8080"], TodoCommandLine(apiURL: URL(string: "http://127.0.0.1:8080"))),
        (["--api-url=https://example.org/api"], TodoCommandLine(apiURL: URL(string: "https://example.org/api"))),
        (["--storage", "/tmp/x"], TodoCommandLine(storage: "/tmp/x")),
        (["list"], TodoCommandLine(command: .list(json: false))),
        (["list", "--json"], TodoCommandLine(command: .list(json: true))),
        (["--json", "list"], TodoCommandLine(command: .list(json: true))),
        (["--api-url", "http://h", "list"], TodoCommandLine(command: .list(json: false), apiURL: URL(string: "http://h"))),
    ])
    func parses(arguments: [String], expected: TodoCommandLine) throws {
        #expect(try TodoCommandLine.parse(arguments) == expected)
    }

    @Test(arguments: [
        (["--bogus"], TodoArgumentError.unknownFlag("--bogus")),
        (["-x"], .unknownFlag("-x")),
        (["--api-url"], .missingValue(flag: "--api-url")),
        (["--storage"], .missingValue(flag: "--storage")),
        (["--api-url", "ftp://x"], .invalidURL("ftp://x")),
        (["--api-url", "not a url"], .invalidURL("not a url")),
        (["frobnicate"], .unexpectedArgument("frobnicate")),
        (["list", "list"], .unexpectedArgument("list")),
    ])
    func rejects(arguments: [String], expected: TodoArgumentError) {
        #expect(throws: expected) { try TodoCommandLine.parse(arguments) }
    }

    @Test func jsonWithoutListIsRejected() {
        #expect(throws: TodoArgumentError.self) { try TodoCommandLine.parse(["--json"]) }
    }

    @Test func storageFollowsTheFlagThenXDGThenHome() {
        #expect(TodoCommandLine.storageDirectory(storage: "/s", environment: ["XDG_DATA_HOME": "/x"]).path == "/s")
        #expect(TodoCommandLine.storageDirectory(storage: nil, environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).path == "/x/todo")
        #expect(TodoCommandLine.storageDirectory(storage: nil, environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]).path == "/h/.local/share/todo")
        #expect(TodoCommandLine.storageDirectory(storage: nil, environment: ["HOME": "/h"]).path == "/h/.local/share/todo")
    }

    @Test(arguments: [
        ([String: String](), true),
        (["TERM": "xterm-256color"], true),
        (["NO_COLOR": "1"], false),
        (["NO_COLOR": ""], true),
        (["TERM": "dumb"], false),
    ])
    func colorIsOffForNoColorAndDumbTerminals(environment: [String: String], expected: Bool) {
        #expect(TodoCommandLine.usesColor(environment: environment) == expected)
    }
}
