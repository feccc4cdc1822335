import Foundation
import Harness
import Testing

/// Runs the built `todo` binary with pipes (no terminal) and checks what it prints and returns.
@Suite struct TodoExecutableTests {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = try BuildProducts.executable(named: "todo")
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus,
                       stdout: String(decoding: stdout, as: UTF8.self),
                       stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test func helpPrintsUsageAndExitsZero() throws {
        let outcome = try Self.run(["--help"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout.hasPrefix("Usage: todo"))
        #expect(outcome.stdout.contains("--api-url URL"))
        #expect(outcome.stderr.isEmpty)
    }

    @Test func versionPrintsTheVersion() throws {
        let outcome = try Self.run(["--version"])
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "todo 0.1.0\n")
    }

    @Test func unknownFlagsPrintUsageOnStderrAndExit64() throws {
        let outcome = try Self.run(["--frobnicate"])
        #expect(outcome.status == 64)
        #expect(outcome.stdout.isEmpty)
        #expect(outcome.stderr.contains("unknown option --frobnicate"))
        #expect(outcome.stderr.contains("Usage: todo"))
    }

    @Test func withoutATerminalItSaysSoAndExits1() throws {
        let outcome = try Self.run([])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("not a terminal"))
    }

    @Test func listFailsClearlyWhenTheNetworkFails() throws {
        // Port 9 on loopback (discard) is closed here: the connection is refused at once.
        let outcome = try Self.run(["list", "--api-url", "http://127.0.0.1:9"])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("could not load the todos from http://127.0.0.1:9/todos"))
        #expect(outcome.stdout.isEmpty)
    }
}
