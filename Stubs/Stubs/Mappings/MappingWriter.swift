import Foundation
import HarnessSystem

/// Turns stubs and journaled requests into the JSON of the admin API (the mapping-file format).
enum MappingWriter {
    static func json(_ summary: StubSummary) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(summary.id.rawValue),
            "priority": .number(Double(summary.priority)),
            "request": json(summary.pattern),
            "matchCount": .number(Double(summary.matchCount)),
        ]
        if let uses = summary.remainingUses { object["uses"] = .number(Double(uses)) }
        if case .sequence(let steps) = summary.behaviour.kind {
            object["sequence"] = .array(steps.map(json))
        } else {
            object["response"] = json(summary.behaviour)
        }
        return .object(object)
    }

    static func json(_ pattern: RequestPattern) -> JSONValue {
        var object: [String: JSONValue] = ["method": .string(pattern.method ?? "ANY")]
        switch pattern.path {
        case .exact(let path): object["path"] = .string(path)
        case .prefix(let prefix): object["pathPrefix"] = .string(prefix)
        case .regex(let regex): object["pathPattern"] = .string(regex)
        case nil: break
        }
        func conditions(_ list: [RequestPattern.NamedCondition]) -> JSONValue {
            var result: [String: JSONValue] = [:]
            for condition in list {
                switch condition.pattern {
                case .equalTo(let value): result[condition.name] = .string(value)
                case .contains(let value): result[condition.name] = .object(["contains": .string(value)])
                case .matches(let value): result[condition.name] = .object(["matches": .string(value)])
                case .present: result[condition.name] = .object(["present": .bool(true)])
                case .absent: result[condition.name] = .object(["absent": .bool(true)])
                }
            }
            return .object(result)
        }
        if !pattern.query.isEmpty { object["query"] = conditions(pattern.query) }
        if !pattern.headers.isEmpty { object["headers"] = conditions(pattern.headers) }
        if let body = pattern.body {
            switch body.kind {
            case .exact(let data): object["body"] = .object(["equalTo": .string(String(decoding: data, as: UTF8.self))])
            case .contains(let text): object["body"] = .object(["contains": .string(text)])
            case .matches(let regex): object["body"] = .object(["matches": .string(regex)])
            case .jsonEqual(let json): object["body"] = .object(["equalToJson": json])
            case .invalidJSON(let text, _): object["body"] = .object(["equalTo": .string(text)])
            }
        }
        return .object(object)
    }

    static func json(_ behaviour: StubBehaviour) -> JSONValue {
        switch behaviour.kind {
        case .respond(let response): return json(response)
        case .hang: return .object(["fault": "hang"])
        case .closeConnection: return .object(["fault": "closeConnection"])
        case .reset: return .object(["fault": "reset"])
        case .garbage: return .object(["fault": "garbage"])
        case .sequence(let steps): return steps.first.map(json) ?? .object([:])
        case .delayed(let delay, let inner):
            guard case .object(var object) = json(inner) else { return json(inner) }
            let extra = Double(delay.clampedNanoseconds / 1_000_000)
            if case .number(let existing) = object["delayMs"] {
                object["delayMs"] = .number(existing + extra)
            } else {
                object["delayMs"] = .number(extra)
            }
            return .object(object)
        }
    }

    static func json(_ response: StubResponse) -> JSONValue {
        var object: [String: JSONValue] = ["status": .number(Double(response.status))]
        if response.headers.count > 0 {
            var headers: [String: JSONValue] = [:]
            for field in response.headers { headers[field.name] = .string(field.value) }
            object["headers"] = .object(headers)
        }
        switch response.body {
        case .empty: break
        case .text(let text): object["body"] = .string(text)
        case .bytes(let data):
            if let text = String(data: data, encoding: .utf8) {
                object["body"] = .string(text)
            } else {
                object["base64Body"] = .string(data.base64EncodedString())
            }
        case .file(let url): object["bodyFile"] = .string(url.path)
        case .bodyFile(let file): object["bodyFile"] = .string(file.path)
        }
        if let chunkSize = response.chunkSize { object["chunked"] = .number(Double(chunkSize)) }
        if let delay = response.delay { object["delayMs"] = .number(Double(delay.clampedNanoseconds / 1_000_000)) }
        if let throttle = response.throttle {
            object["throttle"] = .object([
                "bytes": .number(Double(throttle.bytes)),
                "intervalMs": .number(Double(throttle.interval.clampedNanoseconds / 1_000_000)),
            ])
        }
        return .object(object)
    }

    /// One formatter, used under its lock (a formatter is not safe to share between threads).
    private static let dateFormatter: Locked<ISO8601DateFormatter> = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return Locked(formatter)
    }()

    static func json(_ request: RecordedRequest) -> JSONValue {
        var headers: [String: JSONValue] = [:]
        for field in request.headers {
            if case .string(let existing) = headers[field.name] {
                headers[field.name] = .string(existing + ", " + field.value)
            } else {
                headers[field.name] = .string(field.value)
            }
        }
        let date = dateFormatter.withLock { $0.string(from: request.receivedAt) }
        var object: [String: JSONValue] = [
            "sequenceNumber": .number(Double(request.sequenceNumber)),
            "method": .string(request.method),
            "url": .string(request.target),
            "path": .string(request.path),
            "query": .array(request.query.map { .object(["name": .string($0.name), "value": .string($0.value)]) }),
            "headers": .object(headers),
            "receivedAt": .string(date),
            "stubId": request.stubID.map { .string($0.rawValue) } ?? .null,
        ]
        if let text = request.bodyText {
            object["body"] = .string(text)
        } else {
            object["base64Body"] = .string(request.body.base64EncodedString())
        }
        return .object(object)
    }
}
