import Foundation
import TestSupport
import Testing
import Harness
import HarnessSystem
@testable import HarnessCore
@testable import HarnessFlows
@testable import HarnessSteps

/// Each kind of terminal wait, written once as a Swift wait (`session.waitFor(title:)`) and once
/// as a flow line (`expect-title`), against the same program and the same failing screen: both
/// are one wait of the core, so both fail with the same first line, the Swift error's
/// (`Timed out after 300 ms waiting for the title "other"; the title is "a title".`).
@Suite struct WaitParityTests {
    /// One wait in both spellings.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var flow: String
        var swift: @Sendable (TerminalSession) async throws -> Void
        var testDescription: String { name }
    }

    static let limit = Duration.milliseconds(300)

    /// Prints two lines, sets the title and writes the clipboard, then waits for input: every
    /// wait below fails against it.
    static let program = #"printf 'hello world\nready\n\033]2;a title\007\033]52;c;Y29weQ==\007'; read line"#

    static let rows: [Row] = [
        Row(name: "text", flow: #"expect "absent" within 300ms"#) { try await $0.waitFor(text: "absent", timeout: limit) },
        Row(name: "text in an area", flow: #"expect "hello world" in rows 1 within 300ms"#) {
            try await $0.waitFor(text: "hello world", in: .rows(1...1), timeout: limit)
        },
        Row(name: "regex", flow: #"expect /^abs+ent$/ within 300ms"#) { try await $0.waitFor(regex: "^abs+ent$", timeout: limit) },
        Row(name: "styled text", flow: #"expect "ready" style bold within 300ms"#) {
            try await $0.waitFor(text: "ready", style: TextStyle(bold: true), timeout: limit)
        },
        Row(name: "styled regex in an area", flow: #"expect /rea+dy/ in rows 0 style bold within 300ms"#) {
            try await $0.waitFor(regex: "rea+dy", in: .rows(0...0), style: TextStyle(bold: true), timeout: limit)
        },
        Row(name: "output text", flow: #"expect-output "absent" within 300ms"#) { try await $0.waitForOutput(text: "absent", timeout: limit) },
        Row(name: "output regex", flow: #"expect-output /abs+ent/ within 300ms"#) {
            try await $0.waitForOutput(regex: "abs+ent", timeout: limit)
        },
        Row(name: "exit", flow: "timeout 300ms\nexit 0") { try await $0.waitForExit(timeout: limit) },
        Row(name: "title", flow: #"expect-title "other" within 300ms"#) { try await $0.waitFor(title: "other", timeout: limit) },
        Row(name: "title regex", flow: #"expect-title /^oth+er$/ within 300ms"#) {
            try await $0.waitFor(titleRegex: "^oth+er$", timeout: limit)
        },
        Row(name: "clipboard", flow: #"expect-clipboard "other" within 300ms"#) { try await $0.waitFor(clipboard: "other", timeout: limit) },
        Row(name: "clipboard regex", flow: #"expect-clipboard /^oth+er$/ within 300ms"#) {
            try await $0.waitFor(clipboardRegex: "^oth+er$", timeout: limit)
        },
        Row(name: "shell command", flow: "expect-command within 300ms") { try await $0.waitForCommand(timeout: limit) },
    ]

    @Test(arguments: rows)
    func bothFrontEndsFailAlike(_ row: Row) async throws {
        let fixture = try FlowFixture()
        defer { fixture.remove() }
        let program = try fixture.write(Self.program, at: "program.sh")

        // The flow: the program's reports arrived, then the wait that fails.
        let outcome = try await fixture.run(
            ["app /bin/sh \(program)", "launch", #"expect-clipboard "copy" within 60s"#, row.flow].joined(separator: "\n"))
        let flowLine = row.flow.split(separator: "\n").last.map(String.init) ?? row.flow
        let flowMessage = failure(of: outcome)?.message
        let flowProblem = flowMessage?.split(separator: "\n").first.map { line in
            line.hasPrefix(flowLine + ": ") ? String(line.dropFirst(flowLine.count + 2)) : String(line)
        }

        // The same wait in Swift, its failure read from the error (nothing records it here).
        var configuration = TerminalSession.Configuration(executable: "/bin/sh", arguments: [program])
        configuration.environment = testEnvironment
        configuration.defaultTimeout = mustSucceedTimeout
        let session = try TerminalSession.launch(configuration)
        defer { _ = session.terminate() }
        try await session.waitFor(clipboard: "copy")
        var swiftMessage: String?
        do {
            try await CallSiteFailures.$areReportedAbove.withValue(true) { try await row.swift(session) }
        } catch let error as TerminalSessionError {
            swiftMessage = error.failureMessage
        }
        let swiftProblem = swiftMessage?.split(separator: "\n").first.map(String.init)

        #expect(swiftProblem != nil, "the Swift wait did not fail")
        #expect(flowProblem == swiftProblem, "flow: \(flowMessage ?? "passed")\nswift: \(swiftMessage ?? "passed")")
    }
}
