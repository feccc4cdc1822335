import Foundation

/// The `/__admin/` HTTP API: list, add and remove stubs, reset, read and clear the journal.
/// Documented in docs/STUBS.md. Admin requests are not journaled.
///
/// Only local programs may use it: the `Host` must name loopback (a page whose name was
/// rebound to 127.0.0.1 sends its own name), an `Origin` must be loopback too (a page's
/// cross-site request carries its origin), and a body must be declared JSON (a page's form or
/// "simple" request cannot say `application/json` without asking first).
enum AdminAPI {
    static func respond(to request: RecordedRequest, core: StubServerCore) -> StubResponse {
        if let refusal = refusal(of: request) { return refusal }
        let path = request.path.hasSuffix("/") && request.path.count > 1 ? String(request.path.dropLast()) : request.path
        let method = request.method.uppercased()
        switch (method, path) {
        case ("GET", "/__admin/mappings"):
            return json(["mappings": .array(core.summaries.map(MappingWriter.json))])
        case ("POST", "/__admin/mappings"):
            do {
                let mappings = try StubMappingFile.parseAdminMappings(request.body, filesDirectory: core.options.filesDirectory)
                for mapping in mappings {
                    core.addStub(
                        id: mapping.id, pattern: mapping.pattern, behaviour: mapping.behaviour,
                        priority: mapping.priority, uses: mapping.uses
                    )
                }
                return json(["ids": .array(mappings.map { .string($0.id.rawValue) })], status: 201)
            } catch let error as StubMappingError {
                return json(["errors": .array(error.issues.map { .string($0.description) })], status: 400)
            } catch {
                return json(["errors": .array([.string("\(error)")])], status: 400)
            }
        case ("DELETE", "/__admin/mappings"):
            core.removeAllStubs()
            return json(["removed": "all"])
        case ("POST", "/__admin/reset"):
            core.removeAllStubs()
            core.clearJournal()
            let initial = core.initialMappings
            for mapping in initial {
                core.addStub(
                    id: mapping.id, pattern: mapping.pattern, behaviour: mapping.behaviour,
                    priority: mapping.priority, uses: mapping.uses
                )
            }
            return json(["reset": .bool(true), "mappings": .number(Double(initial.count))])
        case ("GET", "/__admin/requests"):
            return json(["requests": .array(core.journal.map(MappingWriter.json))])
        case ("DELETE", "/__admin/requests"):
            core.clearJournal()
            return json(["cleared": .bool(true)])
        default:
            if path.hasPrefix("/__admin/mappings/") {
                let id = StubID(String(path.dropFirst("/__admin/mappings/".count)).removingPercentEncoding ?? "")
                switch method {
                case "DELETE":
                    return core.removeStub(id)
                        ? json(["removed": .string(id.rawValue)])
                        : json(["error": .string("no stub with id \(id)")], status: 404)
                case "GET":
                    return core.summaries.first { $0.id == id }.map { json(MappingWriter.json($0)) }
                        ?? json(["error": .string("no stub with id \(id)")], status: 404)
                default:
                    return json(["error": .string("\(method) is not allowed on \(path)")], status: 405)
                }
            }
            let known = ["/__admin/mappings", "/__admin/reset", "/__admin/requests"]
            if known.contains(path) {
                return json(["error": .string("\(method) is not allowed on \(path)")], status: 405)
            }
            return json(["error": .string("unknown admin endpoint \(method) \(path)")], status: 404)
        }
    }

    // MARK: - Who may call

    /// The 403 or 415 answer for a request that did not come from a local program, or nil.
    static func refusal(of request: RecordedRequest) -> StubResponse? {
        let hosts = request.headers.values(for: "Host")
        guard hosts.count == 1, isLoopbackAuthority(hosts[0]) else {
            let found = hosts.isEmpty ? "no Host header" : "Host \(hosts.joined(separator: ", "))"
            return json(["error": .string(
                "the admin API answers only requests whose Host is 127.0.0.1, localhost or [::1] (with an optional port); got \(found)"
            )], status: 403)
        }
        for origin in request.headers.values(for: "Origin") where !isLoopbackOrigin(origin) {
            return json(["error": .string(
                "the admin API refuses requests from web pages: Origin \(origin) is not http(s)://127.0.0.1, localhost or [::1]"
            )], status: 403)
        }
        if !request.body.isEmpty {
            let types = request.headers.values(for: "Content-Type")
            guard types.count == 1, isJSON(types[0]) else {
                let found = types.isEmpty ? "no Content-Type" : "Content-Type \(types.joined(separator: ", "))"
                return json(["error": .string("the admin API takes JSON bodies only: send Content-Type: application/json; got \(found)")],
                            status: 415)
            }
        }
        return nil
    }

    /// `127.0.0.1`, `localhost` or `[::1]`, each with an optional port.
    static func isLoopbackAuthority(_ authority: String) -> Bool {
        let value = authority.lowercased()
        let host: Substring
        var port: Substring?
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return false }
            host = value[...close]
            let rest = value[value.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return false }
                port = rest.dropFirst()
            }
        } else if let colon = value.firstIndex(of: ":") {
            host = value[..<colon]
            port = value[value.index(after: colon)...]
        } else {
            host = value[...]
        }
        if let port, port.isEmpty || port.count > 5 || !port.allSatisfy(\.isASCII) || !port.allSatisfy(\.isNumber) {
            return false
        }
        return ["127.0.0.1", "localhost", "[::1]"].contains(host)
    }

    /// `http://` or `https://` and a loopback authority, nothing else (`null` is not).
    static func isLoopbackOrigin(_ origin: String) -> Bool {
        let value = origin.lowercased()
        for scheme in ["http://", "https://"] where value.hasPrefix(scheme) {
            return isLoopbackAuthority(String(value.dropFirst(scheme.count)))
        }
        return false
    }

    /// `application/json`, with any parameters (`; charset=utf-8`).
    static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }

    private static func json(_ object: [String: JSONValue], status: Int = 200) -> StubResponse {
        json(.object(object), status: status)
    }

    private static func json(_ value: JSONValue, status: Int = 200) -> StubResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return StubResponse(status: status, headers: ["Content-Type": "application/json"], body: .bytes(data + Data("\n".utf8)))
    }
}
