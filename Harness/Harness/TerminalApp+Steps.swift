import Foundation
import HarnessCore
import HarnessWire
import TerminalEmulator

extension TerminalApp {
    /// Runs `steps` in order: each action, then each of its expectations, waiting event driven.
    ///
    /// The first unmet expectation is reported at its step's line (Swift Testing or XCTest),
    /// showing what was expected next to the screen, and the flow stops by throwing
    /// ``AppStepsFailed``.
    public func run(_ steps: AppStep...) async throws {
        try await run(steps)
    }

    /// The array form of ``run(_:)-(AppStep...)``.
    public func run(_ steps: [AppStep]) async throws {
        for (offset, step) in steps.enumerated() {
            if let message = await failure(of: step) {
                let report = """
                    Step \(offset + 1)\(step.action.map { " (\($0))" } ?? "") failed: \(message)
                    \(session.exitStatus.map { "The app \($0).\n" } ?? "")Screen:
                    \(session.screen.framed())
                    """
                FailureReporter.fail(report, at: step.location)
                throw AppStepsFailed(step: offset + 1, location: step.location, message: message)
            }
        }
    }

    /// Performs one step; returns what went wrong, or nil.
    private func failure(of step: AppStep) async -> String? {
        if let action = step.action {
            do {
                try await perform(action)
            } catch {
                return "could not \(action): \(error)"
            }
        }
        for expectation in step.expectations {
            do {
                if let problem = try await check(expectation, location: step.location) {
                    return "expected \(expectation)\n\(problem)"
                }
            } catch {
                return "expected \(expectation)\n\(error)"
            }
        }
        return nil
    }

    private func perform(_ action: AppAction) async throws {
        switch action {
        case .type(let text): try session.type(text)
        case .press(let keys): try session.press(keys)
        case .paste(let text): try session.paste(text)
        case .resize(let cols, let rows): try session.resize(cols: cols, rows: rows)
        case .click(let target): try session.click(target)
        case .doubleClick(let target): try session.doubleClick(target)
        case .drag(let from, let to): try session.drag(from: from, to: to)
        case .scroll(let direction, let count, let target): try session.scroll(direction, count: count, at: target)
        case .call(let name, let json): _ = try await bridge.callRaw(name, params: try RawJSON(validating: Data(json.utf8)))
        case .perform(_, let body): try await body(self)
        }
    }

    private func check(_ expectation: AppExpectation, location: SourceCodeLocation) async throws -> String? {
        switch expectation {
        case .text(let text):
            _ = try await session.waitFor(text: text)
        case .noText(let text):
            if session.screen.contains(text) { return "but it is on screen" }
        case .regex(let pattern):
            _ = try await session.waitFor(regex: pattern)
        case .screen(let description, let predicate):
            _ = try await session.waitFor(description, where: predicate)
        case .snapshot(let name, let masks, let style):
            let screen = try await session.waitUntilStable(quietFor: .milliseconds(30))
            return verifySnapshot(
                of: screen, as: .screen(masks: masks, style: style), named: name,
                fileID: location.fileID, filePath: location.filePath, function: "steps",
                line: location.line, column: location.column
            )
        case .spyCount(let name, let count):
            let spy = try bridge.spy(name, as: AnyRecordedValue.self)
            if count > 0 { _ = try await spy.waitForCall(number: count) }
            let actual = try await spy.count
            if actual != count { return "but it has \(actual)" }
        case .events(let name, let values):
            let events = try await bridge.nextEvents(values.count, named: name)
            let actual = events.map(\.value.text)
            if actual != values { return "but they were: \(actual.joined(separator: ", "))" }
        case .exit(let status):
            let actual = try await session.waitForExit()
            if actual != status { return "but it \(actual)" }
        case .check(_, let body):
            return try await body(self)
        }
        return nil
    }
}

/// Decodes from any JSON value without reading it: for counting a spy's calls.
private struct AnyRecordedValue: Decodable {
    init(from decoder: any Decoder) throws {}
}
