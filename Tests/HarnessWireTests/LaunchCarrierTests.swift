import Foundation
import Testing
@testable import HarnessWire

/// The environment carrier of the launch protocol and the edge cases docs/PROTOCOL.md section 1
/// specifies (clock formats, empty values, `--harness-set K`, values starting with `--`).
@Suite struct LaunchCarrierTests {
    @Test func roundTripsThroughTheEnvironmentCarrier() throws {
        let options = LaunchOptionsTests.full
        let argv = ["/usr/bin/python3", "tool.py", "--verbose"]
        let parsed = try LaunchOptions.parse(arguments: argv, environment: options.environmentCarrier)
        #expect(parsed.options == options)
        #expect(parsed.remainingArguments == argv)
    }

    @Test func exactVariableNames() {
        #expect(LaunchOptionsTests.full.environmentCarrier == [
            "HARNESS_NETWORK": "http://127.0.0.1:49152/api",
            "HARNESS_STORAGE": "/tmp/sandbox dir",
            "HARNESS_BRIDGE": "/tmp/harness-bridge.abc/bridge.sock",
            "HARNESS_CLOCK": "2024-05-01T09:30:00Z",
            "HARNESS_INITIAL_STATE": "error",
            "HARNESS_SET": #"{"greeting":"a=b c","theme":"dark"}"#,
            "HARNESS_BRIDGE_TOKEN": "00ff",
        ])
    }

    @Test func theTokenAloneActivatesNothing() throws {
        let parsed = try LaunchOptions.parse(arguments: ["app"], environment: ["HARNESS_BRIDGE_TOKEN": "t", "HARNESS_RECORD": "all"])
        #expect(parsed.options == nil)
    }

    @Test func bothCarriersAreALaunchError() {
        #expect(throws: LaunchOptionsError.bothCarriers(flags: ["--harness-storage"], variables: ["HARNESS_STORAGE"])) {
            try LaunchOptions.parse(arguments: ["app", "--harness-storage", "/a"], environment: ["HARNESS_STORAGE": "/b"])
        }
        #expect(throws: LaunchOptionsError.bothCarriers(flags: ["--harness-clock"], variables: ["HARNESS_NETWORK"])) {
            try LaunchOptions.parse(arguments: ["app", "--harness-clock=2024-05-01T09:30:00Z"],
                                    environment: ["HARNESS_NETWORK": "http://127.0.0.1:1"])
        }
    }

    @Test(arguments: [
        (["HARNESS_STORAGE": ""], LaunchOptionsError.emptyVariable("HARNESS_STORAGE")),
        (["HARNESS_CLOCK": "2024-05-01 09:30:00Z"], .invalidClock("2024-05-01 09:30:00Z")),
        (["HARNESS_NETWORK": "nowhere"], .invalidURL("nowhere")),
        (["HARNESS_SET": #"{"a":"1","a":"2"}"#], .duplicateKey("a")),
        (["HARNESS_SET": #"{"a":1}"#], .invalidSetVariable("a value is not a string")),
        (["HARNESS_SET": #"{"":"x"}"#], .invalidSetVariable("a key is empty")),
    ])
    func malformedVariablesThrow(environment: [String: String], expected: LaunchOptionsError) {
        #expect(throws: expected) { try LaunchOptions.parse(arguments: ["app"], environment: environment) }
    }

    @Test func setVariableThatIsNotAnObjectIsRefused() {
        for text in ["[]", "a=b", #"{"a":"b"} x"#] {
            #expect(throws: LaunchOptionsError.self) { try LaunchOptions.parse(arguments: ["app"], environment: ["HARNESS_SET": text]) }
        }
    }

    @Test func setWithAnEmptyValueIsAllowedButNotWithoutEquals() throws {
        let parsed = try LaunchOptions.parse(arguments: ["app", "--harness-set", "k=", "--harness-set=j=a=b"], environment: [:])
        #expect(parsed.options?.values == ["k": "", "j": "a=b"])
        #expect(throws: LaunchOptionsError.invalidKeyValue("k")) {
            try LaunchOptions.parse(arguments: ["app", "--harness-set", "k"], environment: [:])
        }
        let fromEnvironment = try LaunchOptions.parse(arguments: ["app"], environment: ["HARNESS_SET": #"{"k":""}"#])
        #expect(fromEnvironment.options?.values == ["k": ""])
    }

    /// The next argument is the value, whatever it starts with; a bare `--` included.
    @Test func aValueStartingWithDashesIsTakenAsIs() throws {
        let parsed = try LaunchOptions.parse(
            arguments: ["app", "--harness-storage", "--harness-bridge", "--harness-initial-state", "--", "rest"], environment: [:])
        #expect(parsed.options?.storageDirectory == "--harness-bridge")
        #expect(parsed.options?.initialState == "--")
        #expect(parsed.remainingArguments == ["app", "rest"])
    }

    @Test(arguments: [
        ("2024-05-01T09:30:00Z", 1_714_555_800.0),
        ("2024-05-01T09:30:00.250Z", 1_714_555_800.25),
        ("2024-05-01T09:30:00.123456789Z", 1_714_555_800.123456789),
        ("2024-05-01T11:30:00+02:00", 1_714_555_800.0),
        ("2024-05-01T04:00:00-05:30", 1_714_555_800.0),
        ("2024-02-29T00:00:00Z", 1_709_164_800.0),
        ("1970-01-01T00:00:00Z", 0.0),
    ])
    func acceptedClocks(text: String, seconds: Double) throws {
        let date = try #require(LaunchClock.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.000_001)
    }

    @Test(arguments: [
        "2024-05-01", "2024-05-01T09:30Z", "2024-05-01T09:30:00", "2024-05-01t09:30:00Z", "2024-05-01T09:30:00z",
        "2024-05-01 09:30:00Z", "2024-05-01T09:30:00+0200", "2024-05-01T09:30:00.Z", "2024-05-01T09:30:00.1234567890Z",
        "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-04-31T00:00:00Z", "2024-05-01T24:00:00Z",
        "2024-05-01T09:60:00Z", "2024-05-01T09:30:60Z", "0000-01-01T00:00:00Z", " 2024-05-01T09:30:00Z",
        "2024-05-01T09:30:00Z ", "2024-05-01T09:30:00+24:00", "+2024-05-01T09:30:00Z",
    ])
    func refusedClocks(text: String) {
        #expect(LaunchClock.parse(text) == nil)
        #expect(throws: LaunchOptionsError.invalidClock(text)) {
            try LaunchOptions.parse(arguments: ["app", "--harness-clock", text], environment: [:])
        }
    }
}
