import Foundation
import HarnessCore
import Stubs

/// What the flow's stub server matched and received: `stub` routes with their conditions,
/// `expect-request` and `requests` checks, and the requests no route matched.
extension FlowRun {
    /// The request pattern of a `stub`, `expect-request` or `requests` line: the method, the
    /// exact path, each query parameter written after `?`, and the line's other conditions
    /// (Stubs' own matchers, as a Swift test's `RequestPattern` uses them).
    static func pattern(method: String, target: String, match: FlowRequestMatch) throws -> RequestPattern {
        var pattern = pattern(method: method, target: target)
        for condition in match.query { pattern = pattern.withQuery(condition.name, condition.value.valuePattern) }
        for condition in match.headers { pattern = pattern.withHeader(condition.name, condition.value.valuePattern) }
        switch match.body {
        case nil: break
        case .contains(let text)?: pattern = pattern.withBody(.contains(text))
        case .regex(let regex)?: pattern = pattern.withBody(.matches(regex))
        case .json(let file)?:
            do {
                pattern = pattern.withBody(.jsonEqual(try JSONValue(parsing: try read(file))))
            } catch let failure as FlowStepFailure {
                throw failure
            } catch {
                throw FlowStepFailure("body json \(file.written): the file is not JSON (\(error))", showsScreen: false)
            }
        }
        return pattern
    }

    /// The id a `stub` line's route gets: its method, path and conditions as written, which the
    /// journal, the report and near-miss messages show (two lines never share one: the parser
    /// refuses a route given twice).
    static func stubID(of stub: FlowStub) -> StubID {
        StubID(([stub.method, stub.path] + stub.match.words).joined(separator: " "))
    }

    /// `expect-request`: waits (up to the timeout) for a matching request unless the count
    /// is 0, then compares the journal with the count (at least one without it).
    func expectRequest(_ expected: FlowRequestExpectation) async throws {
        let pattern = try Self.pattern(method: expected.method, target: expected.path, match: expected.match)
        try await verifyRequests(pattern, count: expected.count)
    }

    /// Waits for the first request matching `pattern` (unless `count` is 0; until the program
    /// ends at the latest, since an ended program sends nothing more), then checks that the
    /// journal holds `count` of them (at least one when nil), failing with Stubs' own
    /// verification message: every request received, and the closest ones with how they differ.
    func verifyRequests(_ pattern: RequestPattern, count: Int?) async throws {
        guard let server = stubServer else {
            throw FlowStepFailure("the flow has no stub server", showsScreen: false)
        }
        if count != 0 {
            let limit = timeout
            let session = app?.session
            let piped = pipedApp?.session
            await withTaskGroup(of: Void.self) { group in
                group.addTask { _ = try? await server.waitForRequest(matching: pattern, timeout: limit) }
                if let session { group.addTask { _ = try? await session.waitForExit(timeout: limit) } }
                if let piped { group.addTask { _ = try? await piped.waitForExit(timeout: limit) } }
                await group.next()
                group.cancelAll()
            }
        }
        let expected = count.map(RequestCount.exactly) ?? .atLeast(1)
        if let failure = server.verificationFailure(pattern, count: expected) {
            let actual = failure.actualCount
            throw FlowStepFailure("the stub server received \(actual) such request\(actual == 1 ? "" : "s"), "
                                  + "expected \(count.map(String.init) ?? "at least 1")",
                                  details: failure.failureMessage, showsScreen: false)
        }
    }

    /// The lines a failure adds about the requests no route matched (each answered 404): the
    /// request and the closest routes with how they differ, as the server's 404 body says.
    /// Empty when every request matched.
    var unmatchedRequestLines: [String] {
        guard let server = stubServer else { return [] }
        let unmatched = server.unmatchedRequests
        guard !unmatched.isEmpty else { return [] }
        let shown = 3
        var lines = ["", "The stub server answered \(unmatched.count) request\(unmatched.count == 1 ? "" : "s") "
                     + "with 404: no route matched \(unmatched.count == 1 ? "it" : "them")."]
        for request in unmatched.prefix(shown) {
            let report = server.nearMissReport(for: request).description.split(separator: "\n", omittingEmptySubsequences: false)
            // The report's first line ("No stub matched this request.") is said above.
            lines += report.dropFirst(2).map { $0.isEmpty ? "" : "  " + $0 }
        }
        if unmatched.count > shown { lines.append("  … \(unmatched.count - shown) more (see the stub journal)") }
        return lines
    }
}

extension FlowValueMatch {
    /// The condition as Stubs' matchers take it.
    var valuePattern: ValuePattern {
        switch self {
        case .equals(let text): .equalTo(text)
        case .contains(let text): .contains(text)
        case .regex(let regex): .matches(regex)
        }
    }
}
