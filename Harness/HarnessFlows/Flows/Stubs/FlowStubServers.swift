import Foundation
import HarnessSteps
import HarnessSystem
import Stubs

/// The stub servers of flows: what the flow front end gives the step engine to start the
/// server of a flow's `stub` lines (``FlowExecutor/Options/stubServers``), so that the step
/// module needs no stub server of its own.
///
/// ```swift
/// let executor = FlowExecutor(options: .init(stubServers: FlowStubServers.start))
/// ```
public enum FlowStubServers {
    /// Starts a stub server with `stubs` registered, in order, each under its route as its id.
    public static func start(_ stubs: [FlowStub]) throws -> any FlowStubServer {
        let server: StubServer
        do {
            server = try StubServer()
        } catch {
            throw FlowStubServerError(message: "cannot start the stub server: \(error)")
        }
        do {
            for stub in stubs {
                server.stub(try pattern(method: stub.method, target: stub.path, match: stub.match),
                            try behaviour(of: stub.response), id: stubID(of: stub))
            }
        } catch {
            server.stop()
            throw error
        }
        return server
    }

    /// The request pattern of a `stub`, `expect-request` or `requests` line: the method, the
    /// exact path, each query parameter written after `?`, and the line's other conditions
    /// (Stubs' own matchers, as a Swift test's `RequestPattern` uses them).
    static func pattern(method: String, target: String, match: FlowRequestMatch) throws -> RequestPattern {
        var pattern = RequestPattern.written(method: method, target: target)
        for condition in match.query { pattern = pattern.withQuery(condition.name, condition.value.valuePattern) }
        for condition in match.headers { pattern = pattern.withHeader(condition.name, condition.value.valuePattern) }
        switch match.body {
        case nil: break
        case .contains(let text)?: pattern = pattern.withBody(.contains(text))
        case .regex(let regex)?: pattern = pattern.withBody(.matches(regex))
        case .json(let file)?:
            let data = try read(file)
            do {
                pattern = pattern.withBody(.jsonEqual(try JSONValue(parsing: data)))
            } catch {
                throw FlowStubServerError(message: "body json \(file.written): the file is not JSON (\(error))")
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

    /// What a `stub` line answers.
    static func behaviour(of response: FlowStubResponse) throws -> StubBehaviour {
        switch response {
        case .hang:
            return .hang
        case .close:
            return .closeConnection
        case .respond(let status, let body, let delay):
            var answer: StubResponse
            switch body {
            case .empty: answer = .status(status)
            case .text(let text): answer = .text(text, status: status)
            case .json(let file): answer = .bytes(try read(file), status: status, contentType: "application/json")
            }
            if let delay { answer = answer.delayed(by: delay) }
            return .respond(answer)
        case .sequence(let statuses, let json):
            let body = try json.map(read)
            return .sequence(statuses.map { status -> StubResponse in
                if let body, (200...299).contains(status) {
                    return .bytes(body, status: status, contentType: "application/json")
                }
                return .status(status)
            })
        }
    }

    /// The bytes of a file a `stub` line answers with.
    static func read(_ file: FlowFileReference) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file.absolutePath))
        } catch {
            throw FlowStubServerError(
                message: "cannot read \(file.written) (\(file.absolutePath)): \(error.localizedDescription)")
        }
    }
}

/// Why a flow's stub server could not start: its message is the step's failure.
public struct FlowStubServerError: Error, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    /// The message.
    public var description: String { message }
}

extension StubServer: FlowStubServer {
    public func waitForRequest(method: String, path: String, match: FlowRequestMatch, timeout: Duration) async {
        guard let pattern = try? FlowStubServers.pattern(method: method, target: path, match: match) else { return }
        _ = try? await waitForRequest(matching: pattern, timeout: timeout)
    }

    public func requestCountFailure(method: String, path: String, match: FlowRequestMatch, count: Int?) throws -> (actual: Int, details: String)? {
        let pattern = try FlowStubServers.pattern(method: method, target: path, match: match)
        guard let failure = verificationFailure(pattern, count: count.map(RequestCount.exactly) ?? .atLeast(1)) else { return nil }
        return (failure.actualCount, failure.failureMessage)
    }

    public var unmatchedRequestLines: [String] {
        let unmatched = unmatchedRequests
        guard !unmatched.isEmpty else { return [] }
        let shown = 3
        var lines = ["", "The stub server answered \(unmatched.count) request\(unmatched.count == 1 ? "" : "s") "
                     + "with 404: no route matched \(unmatched.count == 1 ? "it" : "them")."]
        for request in unmatched.prefix(shown) {
            let report = nearMissReport(for: request).description.split(separator: "\n", omittingEmptySubsequences: false)
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
