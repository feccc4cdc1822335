import Foundation
import Testing
@testable import HarnessWire

@Suite struct LaunchOptionsTests {
    static let full = LaunchOptions(
        networkBaseURL: URL(string: "http://127.0.0.1:49152/api"),
        storageDirectory: "/tmp/sandbox dir",
        bridgeSocketPath: "/tmp/harness-bridge.abc/bridge.sock",
        bridgeToken: "00ff",
        frozenClock: Date(timeIntervalSince1970: 1_714_555_800),
        initialState: "error",
        values: ["theme": "dark", "greeting": "a=b c"])

    @Test func roundTripsThroughArgumentsAndEnvironment() throws {
        let options = Self.full
        let argv = ["/usr/bin/todo", "--verbose"] + options.arguments + ["list"]
        let parsed = try LaunchOptions.parse(arguments: argv, environment: options.environment)
        #expect(parsed.options == options)
        #expect(parsed.remainingArguments == ["/usr/bin/todo", "--verbose", "list"])
    }

    @Test func tokenNeverAppearsInArguments() {
        #expect(!Self.full.arguments.contains { $0.contains("00ff") })
        #expect(Self.full.environment == [LaunchArgument.tokenEnvironmentVariable: "00ff"])
    }

    @Test func exactFlagNames() {
        #expect(Self.full.arguments == [
            "--harness-network", "http://127.0.0.1:49152/api",
            "--harness-storage", "/tmp/sandbox dir",
            "--harness-bridge", "/tmp/harness-bridge.abc/bridge.sock",
            "--harness-clock", "2024-05-01T09:30:00Z",
            "--harness-initial-state", "error",
            "--harness-set", "greeting=a=b c",
            "--harness-set", "theme=dark",
        ])
    }

    @Test func fractionalClockRoundTrips() throws {
        let date = Date(timeIntervalSince1970: 1_714_555_800.25)
        let options = LaunchOptions(frozenClock: date)
        let parsed = try LaunchOptions.parse(arguments: ["app"] + options.arguments, environment: [:])
        let parsedDate = try #require(parsed.options?.frozenClock)
        #expect(abs(parsedDate.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.001)
    }

    @Test func withoutFlagsNothingIsParsed() throws {
        let argv = ["app", "--harness", "-x", "harness-network"]
        let parsed = try LaunchOptions.parse(arguments: argv, environment: [LaunchArgument.tokenEnvironmentVariable: "t"])
        #expect(parsed.options == nil)
        #expect(parsed.remainingArguments == argv)
    }

    @Test func equalsFormAndDoubleDash() throws {
        let argv = ["app", "--harness-initial-state=loading", "--harness-set=k=v", "--", "--harness-storage", "x"]
        let parsed = try LaunchOptions.parse(arguments: argv, environment: [:])
        #expect(parsed.options?.initialState == "loading")
        #expect(parsed.options?.values == ["k": "v"])
        #expect(parsed.options?.storageDirectory == nil)
        #expect(parsed.options?.bridgeToken == nil)
        #expect(parsed.remainingArguments == ["app", "--", "--harness-storage", "x"])
    }

    @Test(arguments: [
        (["app", "--harness-network"], LaunchOptionsError.missingValue(flag: "--harness-network")),
        (["app", "--harness-storage="], .emptyValue(flag: "--harness-storage")),
        (["app", "--harness-storage", "a", "--harness-storage", "b"], .duplicateFlag(flag: "--harness-storage")),
        (["app", "--harness-netwrk", "x"], .unknownFlag("--harness-netwrk")),
        (["app", "--harness-bogus=1"], .unknownFlag("--harness-bogus")),
        (["app", "--harness-network", "not a url"], .invalidURL("not a url")),
        (["app", "--harness-clock", "yesterday"], .invalidClock("yesterday")),
        (["app", "--harness-set", "novalue"], .invalidKeyValue("novalue")),
        (["app", "--harness-set", "=v"], .invalidKeyValue("=v")),
        (["app", "--harness-set", "k=1", "--harness-set", "k=2"], .duplicateKey("k")),
    ])
    func malformedArgumentsThrowTypedErrors(argv: [String], expected: LaunchOptionsError) {
        #expect(throws: expected) { try LaunchOptions.parse(arguments: argv, environment: [:]) }
        #expect(!expected.description.isEmpty)
    }

    @Test func optionsAreCodable() throws {
        let data = try JSONEncoder().encode(Self.full)
        #expect(try JSONDecoder().decode(LaunchOptions.self, from: data) == Self.full)
    }
}
