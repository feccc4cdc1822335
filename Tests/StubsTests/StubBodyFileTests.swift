import Foundation
import Testing
import TestSupport
@testable import Stubs

/// A mapping's `bodyFile` is read only from inside its folder (the mapping file's, `--files`,
/// or `StubServer.Options.filesDirectory`): absolute paths, `..` that climbs out and symbolic
/// links that lead out are refused with the path and the folder, when the mapping is read and
/// again when the response is sent.
@Suite struct StubBodyFileTests {
    /// A folder `stubs` holding `todos.json`, `sub/deep.json` and `link.txt` (a symbolic link to
    /// `../secret.txt`), and next to it `secret.txt`, which no mapping may serve.
    static func withStubsFolder<T>(_ body: (_ stubs: URL, _ secret: URL) async throws -> T) async throws -> T {
        try await withTemporaryDirectory { folder in
            let stubs = folder.appendingPathComponent("stubs")
            try writeFile(#"[{"id": 1}]"#, at: "stubs/todos.json", in: folder.path)
            try writeFile("deep", at: "stubs/sub/deep.json", in: folder.path)
            let secret = URL(fileURLWithPath: try writeFile("TOP SECRET", at: "secret.txt", in: folder.path))
            try FileManager.default.createSymbolicLink(atPath: stubs.appendingPathComponent("link.txt").path,
                                                       withDestinationPath: "../secret.txt")
            return try await body(stubs, secret)
        }
    }

    static let refused: [(bodyFile: String, problem: String)] = [
        ("SECRET", "is an absolute path; give a path relative to"),
        ("../secret.txt", "leaves the folder"),
        ("sub/../../secret.txt", "leaves the folder"),
        ("link.txt", "through a symbolic link, outside the folder"),
        ("sub", "is not a regular file"),
        ("/proc/self/environ", "is an absolute path"),
    ]

    @Test(arguments: refused)
    func aMappingFileCannotNameAFileOutsideItsFolder(bodyFile: String, problem: String) async throws {
        try await Self.withStubsFolder { stubs, secret in
            let written = bodyFile == "SECRET" ? secret.path : bodyFile
            let json = #"{"mappings": [{"request": {"path": "/x"}, "response": {"bodyFile": "\#(written)"}}]}"#
            let file = stubs.appendingPathComponent("mappings.json")
            try Data(json.utf8).write(to: file)
            let error = try #require(throws: StubMappingError.self) { try StubMappingFile.load(file) }
            let root = try Self.root(of: stubs)
            #expect(error.issues.count == 1)
            let message = error.description
            #expect(message.contains("\(file.path): $.mappings[0].response.bodyFile: "), "\(message)")
            #expect(message.contains("\"\(written)\"") && message.contains(problem) && message.contains(root), "\(message)")
        }
    }

    @Test(arguments: refused)
    func theAdminAPICannotNameAFileOutsideTheFilesFolder(bodyFile: String, problem: String) async throws {
        try await Self.withStubsFolder { stubs, secret in
            let written = bodyFile == "SECRET" ? secret.path : bodyFile
            try await StubServer.with(options: .init(enablesAdminAPI: true, filesDirectory: stubs)) { server in
                let added = try await Self.post(#"{"request": {"path": "/pw"}, "response": {"bodyFile": "\#(written)"}}"#, to: server)
                #expect(added.status == 400)
                let root = try Self.root(of: stubs)
                #expect(added.body.contains("$.response.bodyFile: \\\"\(written)\\\"") && added.body.contains(problem)
                        && added.body.contains(root), "\(added.body)")
                let served = try await fetch(server.url("/pw"))
                #expect(served.1.statusCode == 404)
                #expect(!String(decoding: served.0, as: UTF8.self).contains("TOP SECRET"))
            }
        }
    }

    @Test func aRelativeBodyFileInsideTheFolderIsServed() async throws {
        try await Self.withStubsFolder { stubs, _ in
            try await StubServer.with(options: .init(enablesAdminAPI: true, filesDirectory: stubs)) { server in
                let added = try await Self.post(
                    #"{"mappings": [{"request": {"path": "/todos"}, "response": {"bodyFile": "todos.json"}},"#
                    + #" {"request": {"path": "/deep"}, "response": {"bodyFile": "./sub/../sub/deep.json"}}]}"#, to: server)
                #expect(added.status == 201, "\(added.body)")
                let todos = try await fetch(server.url("/todos"))
                #expect(String(decoding: todos.0, as: UTF8.self) == #"[{"id": 1}]"#)
                #expect(todos.1.value(forHTTPHeaderField: "Content-Type") == "application/json")
                #expect(try await text(server.url("/deep")) == "deep")
                // The listing names the file as the mapping wrote it, not where it lies.
                let listing = try await text(server.url("/__admin/mappings"))
                #expect(listing.contains(#""bodyFile" : "todos.json""#), "\(listing)")
                #expect(!listing.contains(stubs.path))
            }
        }
    }

    @Test func withoutAFilesFolderTheAdminAPIRefusesEveryBodyFile() async throws {
        try await Self.withStubsFolder { _, _ in
            try await StubServer.with(options: .init(enablesAdminAPI: true)) { server in
                let added = try await Self.post(#"{"request": {"path": "/todos"}, "response": {"bodyFile": "todos.json"}}"#, to: server)
                #expect(added.status == 400)
                #expect(added.body.contains(#"bodyFile \"todos.json\" is refused: this server has no files folder"#), "\(added.body)")
            }
        }
    }

    /// The folder may change after the mapping was read: the file is checked again when sent.
    @Test func aFileSwappedForALinkOutsideIsNotSent() async throws {
        try await Self.withStubsFolder { stubs, _ in
            let mappings = try StubMappingFile.parse(
                Data(#"{"mappings": [{"request": {"path": "/todos"}, "response": {"bodyFile": "todos.json"}}]}"#.utf8),
                source: "test", filesDirectory: stubs)
            try await StubServer.with { server in
                server.loadMappings(mappings)
                #expect(try await text(server.url("/todos")) == #"[{"id": 1}]"#)
                let todos = stubs.appendingPathComponent("todos.json")
                try FileManager.default.removeItem(at: todos)
                try FileManager.default.createSymbolicLink(atPath: todos.path, withDestinationPath: "../secret.txt")
                let (body, response) = try await fetch(server.url("/todos"))
                let text = String(decoding: body, as: UTF8.self)
                #expect(response.statusCode == 500)
                #expect(!text.contains("TOP SECRET"))
                #expect(text.contains("\"todos.json\" leads to") && text.contains("outside the folder"), "\(text)")
            }
        }
    }

    @Test func aMissingFilesFolderIsNamed() {
        let error = #expect(throws: StubBodyFileError.self) {
            try StubBodyFile("todos.json", inside: URL(fileURLWithPath: "/nonexistent-stubs-folder"))
        }
        #expect(error?.description.hasPrefix("the files folder /nonexistent-stubs-folder cannot be used for \"todos.json\"") == true,
                "\(String(describing: error))")
    }

    // MARK: - Helpers

    /// The real path of `folder`, as the messages name it.
    static func root(of folder: URL) throws -> String {
        try StubBodyFile("todos.json", inside: folder).root
    }

    /// POSTs `json` to the server's admin API as JSON; the status and body.
    static func post(_ json: String, to server: StubServer) async throws -> (status: Int, body: String) {
        let (data, response) = try await fetch(
            server.url("/__admin/mappings"), method: "POST", body: Data(json.utf8), headers: ["Content-Type": "application/json"])
        return (response.statusCode, String(decoding: data, as: UTF8.self))
    }
}
