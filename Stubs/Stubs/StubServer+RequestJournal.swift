import Foundation
import HarnessSystem

extension StubServer: RequestJournal {
    /// The requests so far, with the status and delay of the stub that answered each (a sequence
    /// stub's answer is found by counting the requests it answered before).
    public var journaledRequests: [JournaledRequest] {
        let behaviours = Dictionary(stubs.map { ($0.id, $0.behaviour) }, uniquingKeysWith: { first, _ in first })
        var uses: [StubID: Int] = [:]
        return requests.map { request in
            var answer: (status: String, delay: Duration?) = ("404", nil)
            if let id = request.stubID {
                let index = uses[id, default: 0]
                uses[id] = index + 1
                answer = behaviours[id]?.answer(forUse: index) ?? ("?", nil)
            }
            return JournaledRequest(receivedAt: request.receivedAt, method: request.method, target: request.target,
                                    status: answer.status, delay: answer.delay)
        }
    }

    /// The journal as a pretty-printed JSON array with sorted keys, one object per request;
    /// `route` is the pattern of the stub that answered it.
    public func journalJSON() -> Data {
        let routes = Dictionary(stubs.map { ($0.id, $0.pattern.description) }, uniquingKeysWith: { first, _ in first })
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let entries: [JSONValue] = requests.map { request in
            var object: [String: JSONValue] = [
                "sequenceNumber": .number(Double(request.sequenceNumber)),
                "method": .string(request.method),
                "target": .string(request.target),
                "headers": .array(request.headers.map { .array([.string($0.name), .string($0.value)]) }),
                "receivedAt": .string(formatter.string(from: request.receivedAt)),
                "stub": request.stubID.map { .string($0.description) } ?? .null,
                "route": request.stubID.flatMap { routes[$0] }.map(JSONValue.string) ?? .null,
            ]
            if let text = request.bodyText {
                object["body"] = .string(text)
            } else {
                object["bodyBase64"] = .string(request.body.base64EncodedString())
            }
            return .object(object)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(JSONValue.array(entries))) ?? Data("null".utf8)) + Data("\n".utf8)
    }

    /// Checks the count of requests `method target` (``RequestPattern/written(method:target:)``).
    public func checkRequestCount(method: String, target: String, count: Int, timeout: Duration) async -> (actual: Int, details: String)? {
        let pattern = RequestPattern.written(method: method, target: target)
        if count >= 1 {
            _ = try? await waitForRequest(matching: pattern, timeout: timeout)
        }
        guard let failure = verificationFailure(pattern, count: .exactly(count)) else { return nil }
        return (requests(matching: pattern).count, "\(failure)")
    }
}

extension RequestPattern {
    /// The pattern of a request as a flow writes it (`GET /items?done=1`): the method, the exact
    /// path, and each query parameter written after `?`.
    public static func written(method: String, target: String) -> RequestPattern {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var pattern = RequestPattern.method(method, .exact(String(parts[0])))
        if parts.count == 2 {
            let probe = RecordedRequest(method: method, target: target)
            for item in probe.query { pattern = pattern.withQuery(item.name, .equalTo(item.value)) }
        }
        return pattern
    }
}
