import Foundation

/// Walks mapping JSON, converting it to stubs and collecting every problem with its JSON path.
struct MappingReader {
    /// The folder `bodyFile` paths are relative to and must stay inside; nil refuses `bodyFile`.
    let filesDirectory: URL?
    private(set) var issues: [StubMappingError.Issue] = []

    init(filesDirectory: URL?) { self.filesDirectory = filesDirectory }

    private mutating func problem(_ path: String, _ text: String) {
        issues.append(.init(path: path, problem: text))
    }

    private func found(_ value: JSONValue) -> String {
        let text = value.jsonText
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }

    /// Checks that `object` has only `allowed` keys.
    private mutating func checkKeys(_ object: [String: JSONValue], _ allowed: [String], at path: String) {
        for key in object.keys.sorted() where !allowed.contains(key) {
            let suggestion = allowed.min { Similarity.distance($0, key) < Similarity.distance($1, key) }
            let hint = suggestion.map { Similarity.distance($0, key) < 0.5 ? " (did you mean \"\($0)\"?)" : "" } ?? ""
            problem("\(path).\(key)", "unknown key\(hint); allowed: \(allowed.joined(separator: ", "))")
        }
    }

    private mutating func object(_ value: JSONValue, at path: String) -> [String: JSONValue]? {
        guard case .object(let object) = value else {
            problem(path, "expected an object, found \(found(value))")
            return nil
        }
        return object
    }

    private mutating func string(_ value: JSONValue, at path: String) -> String? {
        guard case .string(let string) = value else {
            problem(path, "expected a string, found \(found(value))")
            return nil
        }
        return string
    }

    private mutating func integer(_ value: JSONValue, at path: String, range: ClosedRange<Int>, what: String = "an integer") -> Int? {
        guard case .number(let number) = value, number.rounded() == number, number >= Double(range.lowerBound),
              number <= Double(range.upperBound)
        else {
            let bounds = range.upperBound == Int.max ? "\(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
            problem(path, "expected \(what) \(bounds), found \(found(value))")
            return nil
        }
        return Int(number)
    }

    private mutating func checkRegex(_ pattern: String, at path: String) {
        if case .failure(let error) = RegexCache.compile(pattern) { problem(path, error.description) }
    }

    // MARK: - File and mapping

    mutating func readFile(_ json: JSONValue) -> [StubMapping] {
        guard let root = object(json, at: "$") else { return [] }
        checkKeys(root, ["mappings"], at: "$")
        guard let list = root["mappings"] else {
            problem("$.mappings", "missing: a mapping file is {\"mappings\": [ ... ]}")
            return []
        }
        guard case .array(let items) = list else {
            problem("$.mappings", "expected an array, found \(found(list))")
            return []
        }
        var mappings: [StubMapping] = []
        var seenIDs: [StubID: String] = [:]
        for (index, item) in items.enumerated() {
            let path = "$.mappings[\(index)]"
            guard let mapping = readMapping(item, path: path) else { continue }
            if let earlier = seenIDs[mapping.id] {
                problem("\(path).id", "duplicate id \"\(mapping.id)\" (also at \(earlier))")
            }
            seenIDs[mapping.id] = path
            mappings.append(mapping)
        }
        return mappings
    }

    mutating func readMapping(_ json: JSONValue, path: String) -> StubMapping? {
        guard let mapping = object(json, at: path) else { return nil }
        let before = issues.count
        checkKeys(mapping, ["id", "priority", "uses", "request", "response", "sequence"], at: path)
        var id = StubID.unique()
        if let value = mapping["id"], let text = string(value, at: "\(path).id") {
            if text.isEmpty || text.contains("/") {
                problem("\(path).id", "expected a non-empty id without \"/\", found \(found(value))")
            }
            id = StubID(text)
        }
        let priority = mapping["priority"].flatMap { integer($0, at: "\(path).priority", range: 1...Int(Int32.max)) }
        let uses = mapping["uses"].flatMap { integer($0, at: "\(path).uses", range: 1...Int.max) }
        var pattern = RequestPattern()
        if let request = mapping["request"] {
            pattern = readRequest(request, path: "\(path).request") ?? pattern
        } else {
            problem("\(path).request", "missing: say what the stub matches, e.g. {\"method\": \"GET\", \"path\": \"/todos\"}")
        }
        var behaviour = StubBehaviour.respond(.status(200))
        switch (mapping["response"], mapping["sequence"]) {
        case (.some, .some):
            problem(path, "has both \"response\" and \"sequence\"; use one")
        case (nil, nil):
            problem("\(path).response", "missing: give a \"response\" object or a \"sequence\" array")
        case (.some(let response), nil):
            behaviour = readResponse(response, path: "\(path).response") ?? behaviour
        case (nil, .some(let sequence)):
            if case .array(let items) = sequence, !items.isEmpty {
                var steps: [StubBehaviour] = []
                for (index, item) in items.enumerated() {
                    if let step = readResponse(item, path: "\(path).sequence[\(index)]") { steps.append(step) }
                }
                behaviour = .sequence(steps)
            } else {
                problem("\(path).sequence", "expected a non-empty array of responses, found \(found(sequence))")
            }
        }
        guard issues.count == before else { return nil }
        return StubMapping(id: id, priority: priority ?? StubServer.defaultPriority, uses: uses, pattern: pattern, behaviour: behaviour)
    }

    // MARK: - Request

    private mutating func readRequest(_ json: JSONValue, path: String) -> RequestPattern? {
        guard let request = object(json, at: path) else { return nil }
        checkKeys(request, ["method", "path", "pathPrefix", "pathPattern", "query", "headers", "body"], at: path)
        var pattern = RequestPattern()
        if let value = request["method"], let method = string(value, at: "\(path).method") {
            if method.uppercased() == "ANY" {
                pattern.method = nil
            } else if method.isEmpty || !method.allSatisfy({ $0.isLetter || $0 == "-" }) {
                problem("\(path).method", "expected an HTTP method such as \"GET\" or \"ANY\", found \(found(value))")
            } else {
                pattern.method = method.uppercased()
            }
        }
        let pathKeys = ["path", "pathPrefix", "pathPattern"].filter { request[$0] != nil }
        if pathKeys.count > 1 {
            problem(path, "has \(pathKeys.joined(separator: " and ")); use only one")
        } else if let key = pathKeys.first, let text = string(request[key]!, at: "\(path).\(key)") {
            switch key {
            case "path": pattern.path = .exact(text)
            case "pathPrefix": pattern.path = .prefix(text)
            default:
                checkRegex(text, at: "\(path).\(key)")
                pattern.path = .regex(text)
            }
            if key != "pathPattern" && !text.hasPrefix("/") {
                problem("\(path).\(key)", "expected a path starting with \"/\", found \(found(request[key]!))")
            }
            if key == "path" && text.contains("?") {
                problem("\(path).path", "the path must not contain a query; put parameters in \"query\"")
            }
        }
        for (field, keyPath) in [("query", "query"), ("headers", "headers")] {
            guard let value = request[field] else { continue }
            guard let conditions = object(value, at: "\(path).\(keyPath)") else { continue }
            for name in conditions.keys.sorted() {
                guard let valuePattern = readValuePattern(conditions[name]!, path: "\(path).\(keyPath).\(name)") else { continue }
                if field == "query" {
                    pattern = pattern.withQuery(name, valuePattern)
                } else {
                    pattern = pattern.withHeader(name, valuePattern)
                }
            }
        }
        if let value = request["body"] {
            pattern.body = readBodyPattern(value, path: "\(path).body")
        }
        return pattern
    }

    private mutating func readValuePattern(_ json: JSONValue, path: String) -> ValuePattern? {
        if case .string(let text) = json { return .equalTo(text) }
        guard let condition = object(json, at: path) else { return nil }
        guard condition.count == 1, let (key, value) = condition.first else {
            problem(path, "expected exactly one of equalTo, contains, matches, present, absent")
            return nil
        }
        switch key {
        case "equalTo": return string(value, at: "\(path).equalTo").map(ValuePattern.equalTo)
        case "contains": return string(value, at: "\(path).contains").map(ValuePattern.contains)
        case "matches":
            guard let regex = string(value, at: "\(path).matches") else { return nil }
            checkRegex(regex, at: "\(path).matches")
            return .matches(regex)
        case "present", "absent":
            guard value == .bool(true) else {
                problem("\(path).\(key)", "expected true, found \(found(value))")
                return nil
            }
            return key == "present" ? .present : .absent
        default:
            checkKeys(condition, ["equalTo", "contains", "matches", "present", "absent"], at: path)
            return nil
        }
    }

    private mutating func readBodyPattern(_ json: JSONValue, path: String) -> BodyPattern? {
        guard let condition = object(json, at: path) else { return nil }
        guard condition.count == 1, let (key, value) = condition.first else {
            problem(path, "expected exactly one of equalTo, contains, matches, equalToJson")
            return nil
        }
        switch key {
        case "equalTo": return string(value, at: "\(path).equalTo").map { BodyPattern.exact($0) }
        case "contains": return string(value, at: "\(path).contains").map(BodyPattern.contains)
        case "matches":
            guard let regex = string(value, at: "\(path).matches") else { return nil }
            checkRegex(regex, at: "\(path).matches")
            return .matches(regex)
        case "equalToJson": return .jsonEqual(value)
        default:
            checkKeys(condition, ["equalTo", "contains", "matches", "equalToJson"], at: path)
            return nil
        }
    }

    // MARK: - Response

    private mutating func readResponse(_ json: JSONValue, path: String) -> StubBehaviour? {
        guard let response = object(json, at: path) else { return nil }
        let before = issues.count
        checkKeys(
            response,
            ["status", "headers", "body", "base64Body", "json", "bodyFile", "chunked", "delayMs", "throttle", "fault"],
            at: path
        )
        let delay = response["delayMs"].flatMap { integer($0, at: "\(path).delayMs", range: 0...86_400_000, what: "milliseconds") }
            .map { Duration.milliseconds($0) }
        if let value = response["fault"] {
            guard let fault = string(value, at: "\(path).fault") else { return nil }
            let behaviour: StubBehaviour
            switch fault {
            case "hang": behaviour = .hang
            case "closeConnection": behaviour = .closeConnection
            case "reset": behaviour = .reset
            case "garbage": behaviour = .garbage
            default:
                problem("\(path).fault", "expected one of hang, closeConnection, reset, garbage, found \(found(value))")
                return nil
            }
            let others = response.keys.filter { $0 != "fault" && $0 != "delayMs" }.sorted()
            if !others.isEmpty {
                problem(path, "a fault sends no response; remove \(others.joined(separator: ", "))")
            }
            guard issues.count == before else { return nil }
            return delay.map { .delayed($0, behaviour) } ?? behaviour
        }
        var stub = StubResponse(status: 200)
        if let value = response["status"], let status = integer(value, at: "\(path).status", range: 100...599) {
            stub.status = status
        }
        if let value = response["headers"], let headers = object(value, at: "\(path).headers") {
            for name in headers.keys.sorted() {
                if let text = string(headers[name]!, at: "\(path).headers.\(name)") {
                    if text.contains("\r") || text.contains("\n") {
                        problem("\(path).headers.\(name)", "a header value cannot contain a line break")
                    }
                    stub.headers.add(name, text)
                }
            }
        }
        let bodyKeys = ["body", "base64Body", "json", "bodyFile"].filter { response[$0] != nil }
        if bodyKeys.count > 1 {
            problem(path, "has \(bodyKeys.joined(separator: " and ")); use only one body")
        } else if let key = bodyKeys.first {
            let value = response[key]!
            switch key {
            case "body":
                if let text = string(value, at: "\(path).body") { stub.body = .text(text) }
            case "base64Body":
                if let text = string(value, at: "\(path).base64Body") {
                    if let data = Data(base64Encoded: text) {
                        stub.body = .bytes(data)
                    } else {
                        problem("\(path).base64Body", "not valid base64")
                    }
                }
            case "json":
                stub.body = .text(value.jsonText)
                if !stub.headers.contains("Content-Type") { stub.headers.add("Content-Type", "application/json") }
            default:
                if let file = string(value, at: "\(path).bodyFile") {
                    do throws(StubBodyFileError) {
                        guard let filesDirectory else { throw StubBodyFileError(path: file, root: "", problem: .noRoot) }
                        stub.body = .bodyFile(try StubBodyFile(file, inside: filesDirectory))
                        if !stub.headers.contains("Content-Type") {
                            stub.headers.add("Content-Type", StubResponse.contentType(forExtension: URL(fileURLWithPath: file).pathExtension))
                        }
                    } catch {
                        problem("\(path).bodyFile", error.description)
                    }
                }
            }
        }
        if let value = response["chunked"] {
            switch value {
            case .bool(let on): stub.chunkSize = on ? 1024 : nil
            default: stub.chunkSize = integer(value, at: "\(path).chunked", range: 1...Int(Int32.max), what: "true, false or a chunk size")
            }
        }
        if let value = response["throttle"], let throttle = object(value, at: "\(path).throttle") {
            checkKeys(throttle, ["bytes", "intervalMs"], at: "\(path).throttle")
            let bytes = throttle["bytes"].flatMap { integer($0, at: "\(path).throttle.bytes", range: 1...Int(Int32.max)) }
            let interval = throttle["intervalMs"].flatMap {
                integer($0, at: "\(path).throttle.intervalMs", range: 0...60_000, what: "milliseconds")
            }
            if throttle["bytes"] == nil { problem("\(path).throttle.bytes", "missing") }
            if throttle["intervalMs"] == nil { problem("\(path).throttle.intervalMs", "missing") }
            if let bytes, let interval { stub.throttle = .init(bytes: bytes, interval: .milliseconds(interval)) }
        }
        stub.delay = delay
        guard issues.count == before else { return nil }
        return .respond(stub)
    }
}
