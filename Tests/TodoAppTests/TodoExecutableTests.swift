import Foundation
import Harness
import TestSupport
import Testing

/// Runs the built `todo` binary with pipes (no terminal) and checks what it prints and returns.
@Suite struct TodoExecutableTests {
    static func run(_ arguments: [String]) async throws -> ProgramOutput {
        try await runProduct("todo", arguments)
    }

    @Test func helpPrintsUsageAndExitsZero() async throws {
        let outcome = try await Self.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("Usage: todo"))
        #expect(outcome.stdout.contains("--api-url URL"))
        #expect(outcome.stderr.isEmpty)
    }

    @Test func versionPrintsTheVersion() async throws {
        let outcome = try await Self.run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "todo 0.1.0\n")
    }

    @Test func unknownFlagsPrintUsageOnStderrAndExit64() async throws {
        let outcome = try await Self.run(["--frobnicate"])
        #expect(outcome.status == 64)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("unknown option --frobnicate"))
        #expect(outcome.stderr.contains("Usage: todo"))
    }

    @Test func withoutATerminalItSaysSoAndExits1() async throws {
        let outcome = try await Self.run([])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("not a terminal"))
    }

    @Test func listFailsClearlyWhenTheNetworkFails() async throws {
        // Port 9 on loopback (discard) is closed here: the connection is refused at once.
        let outcome = try await Self.run(["list", "--api-url", "http://127.0.0.1:9"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("could not load the todos from http://127.0.0.1:9/todos"))
        #expect(outcome.stdout.isEmpty)
    }
}
