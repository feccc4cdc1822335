import Foundation
import HarnessCore

/// What the flow's stub server received: `expect-request` and `requests` checks, and the
/// requests no route matched (the server, ``FlowStubServer``, does the matching).
extension FlowRun {
    /// `expect-request`: waits (up to the timeout) for a matching request unless the count
    /// is 0, then compares the journal with the count (at least one without it).
    func expectRequest(_ expected: FlowRequestExpectation) async throws {
        try await verifyRequests(method: expected.method, path: expected.path, match: expected.match, count: expected.count)
    }

    /// Waits for the first request matching `method path` and `match` (unless `count` is 0;
    /// until the program ends at the latest, since an ended program sends nothing more), then
    /// checks that the journal holds `count` of them (at least one when nil), failing with the
    /// stub server's own verification message.
    func verifyRequests(method: String, path: String, match: FlowRequestMatch, count: Int?) async throws {
        guard let server = stubServer as? any FlowStubServer else {
            throw FlowStepFailure(stubServer == nil ? "the flow has no stub server" : "this stub server does not check request conditions",
                                  showsScreen: false)
        }
        if count != 0 {
            let limit = timeout
            let session = app?.session
            let piped = pipedApp?.session
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await server.waitForRequest(method: method, path: path, match: match, timeout: limit) }
                if let session { group.addTask { _ = try? await session.waitForExit(timeout: limit) } }
                if let piped { group.addTask { _ = try? await piped.waitForExit(timeout: limit) } }
                await group.next()
                group.cancelAll()
            }
        }
        let failure: (actual: Int, details: String)?
        do {
            failure = try server.requestCountFailure(method: method, path: path, match: match, count: count)
        } catch let stepFailure as FlowStepFailure {
            throw stepFailure
        } catch {
            throw FlowStepFailure("\(error)", showsScreen: false)
        }
        if let failure {
            throw FlowStepFailure("the stub server received \(failure.actual) such request\(failure.actual == 1 ? "" : "s"), "
                                  + "expected \(count.map(String.init) ?? "at least 1")",
                                  details: failure.details, showsScreen: false)
        }
    }

    /// The lines a failure adds about the requests no route matched (each answered 404).
    var unmatchedRequestLines: [String] { (stubServer as? any FlowStubServer)?.unmatchedRequestLines ?? [] }
}
