import Foundation

/// The `/__admin/` HTTP API: list, add and remove stubs, reset, read and clear the journal.
/// Documented in docs/STUBS.md. Admin requests are not journaled.
enum AdminAPI {
    static func respond(to request: RecordedRequest, core: StubServerCore) -> StubResponse {
        let path = request.path.hasSuffix("/") && request.path.count > 1 ? String(request.path.dropLast()) : request.path
        let method = request.method.uppercased()
        switch (method, path) {
        case ("GET", "/__admin/mappings"):
            let summaries = core.state.withLock { state in
                state.registry.entries.map {
                    StubSummary(
                        id: $0.id, pattern: $0.pattern, behaviour: $0.behaviour, priority: $0.priority,
                        remainingUses: $0.remainingUses, matchCount: $0.matchCount
                    )
                }
            }
            return json(["mappings": .array(summaries.map(MappingWriter.json))])
        case ("POST", "/__admin/mappings"):
            let base = core.options.mappingBaseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            do {
                let mappings = try StubMappingFile.parseAdminMappings(request.body, baseDirectory: base)
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
            let initial = core.state.withLock { $0.initialMappings }
            for mapping in initial {
                core.addStub(
                    id: mapping.id, pattern: mapping.pattern, behaviour: mapping.behaviour,
                    priority: mapping.priority, uses: mapping.uses
                )
            }
            return json(["reset": .bool(true), "mappings": .number(Double(initial.count))])
        case ("GET", "/__admin/requests"):
            let journal = core.state.withLock { $0.journal }
            return json(["requests": .array(journal.map(MappingWriter.json))])
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
                    let summary = core.state.withLock { state in
                        state.registry.entries.first { $0.id == id }.map {
                            StubSummary(
                                id: $0.id, pattern: $0.pattern, behaviour: $0.behaviour, priority: $0.priority,
                                remainingUses: $0.remainingUses, matchCount: $0.matchCount
                            )
                        }
                    }
                    return summary.map { json(MappingWriter.json($0)) }
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
