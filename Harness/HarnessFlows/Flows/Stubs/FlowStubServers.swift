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
    /// Starts a stub server with `stubs` registered, in order.
    public static func start(_ stubs: [FlowStub]) throws -> any RequestJournal {
        let server: StubServer
        do {
            server = try StubServer()
        } catch {
            throw FlowStubServerError(message: "cannot start the stub server: \(error)")
        }
        do {
            for stub in stubs {
                server.stub(RequestPattern.written(method: stub.method, target: stub.path), try behaviour(of: stub.response))
            }
        } catch {
            server.stop()
            throw error
        }
        return server
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
