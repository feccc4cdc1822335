import Foundation
import HarnessCore
import Testing
import TestSupport
@testable import Stubs

/// docs/STUBS.md's mapping file and shell examples, run for real: the mapping file loads, and the
/// shell blocks (start `stub-server`, curl it, drive the admin API) run in bash with every
/// request answered 2xx. The Swift examples run in TodoAcceptanceTests/DocsExamplesTests.swift.
@Suite struct StubsDocsExamplesTests {
    static func blocks(_ language: String) throws -> [DocumentedExample] {
        let text = try DocumentedExamples.read("docs/STUBS.md", fromTestFile: #filePath)
        return DocumentedExamples.blocks(in: text, document: "docs/STUBS.md", language: language)
    }

    /// The docs' mapping file as `stubs.json`, with a `todos.json` beside it.
    static func withDocumentedMappingFile<T>(_ body: (URL) async throws -> T) async throws -> T {
        let mappingFile = try #require(try blocks("json").first { $0.heading == "Mapping file" })
        return try await withTemporaryDirectory { folder in
            try writeFile(mappingFile.text, at: "stubs.json", in: folder.path)
            try writeFile(#"[{"id": 1, "title": "Walk the dog", "done": false}]"#, at: "todos.json", in: folder.path)
            return try await body(folder)
        }
    }

    @Test func theMappingFileExampleLoads() async throws {
        try await Self.withDocumentedMappingFile { folder in
            let mappings = try StubMappingFile.load(folder.appendingPathComponent("stubs.json"))
            #expect(mappings.count == 7)
        }
    }

    @Test func theShellExamplesRun() async throws {
        let shell = try Self.blocks("sh")
        #expect(shell.map(\.heading) == ["Standalone: `stub-server`", "Admin API"])
        try await Self.withDocumentedMappingFile { folder in
            let script = """
                set -euo pipefail
                curl() { command curl -sS --fail-with-body --max-time 20 "$@"; echo; }
                trap 'kill $! 2>/dev/null || true' EXIT
                \(shell.map(\.text).joined())
                kill $!
                wait $!
                """
            let products = try BuildProducts.executable(named: "stub-server").deletingLastPathComponent().path
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = products + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            let output = try await runProgram("/bin/bash", ["-c", script], environment: environment, workingDirectory: folder.path)
            #expect(output.status == 0, "stdout: \(output.stdout)\nstderr: \(output.stderr)")
            #expect(output.stdout.contains("Walk the dog"))
            #expect(output.stdout.contains(#""ids" : ["#) && output.stdout.contains(#""down""#), "\(output.stdout)")
            #expect(output.stdout.contains(#""reset" : true"#))
        }
    }

    /// The refusals shown under "Body files" are what the reader says (with the docs' folders).
    @Test func theBodyFileRefusalsAreTheReadersWords() async throws {
        let documented = try #require(try Self.blocks("").first { $0.heading == "Body files" })
        try withTemporaryDirectory { folder in
            try writeFile("secret", at: "secret.txt", in: folder.path)
            let file = try writeFile(
                #"{"mappings": [{"request": {}, "response": {"bodyFile": "/etc/passwd"}}, "#
                + #"{"request": {}, "response": {"bodyFile": "../secret.txt"}}, {"request": {}, "response": {"bodyFile": "link.txt"}}]}"#,
                at: "stubs/stubs.json", in: folder.path)
            try FileManager.default.createSymbolicLink(atPath: folder.path + "/stubs/link.txt", withDestinationPath: "../secret.txt")
            let error = try #require(throws: StubMappingError.self) { try StubMappingFile.load(URL(fileURLWithPath: file)) }
            let root = try StubBodyFile("stubs.json", inside: URL(fileURLWithPath: folder.path + "/stubs")).root
            let realSecret = root.replacingOccurrences(of: "/stubs", with: "/secret.txt", options: .backwards)
            let said = error.description
                .replacingOccurrences(of: file, with: "stubs.json")
                .replacingOccurrences(of: realSecret, with: "/home/me/secret.txt")
                .replacingOccurrences(of: root, with: "/srv/stubs")
            #expect(said == documented.lines.joined(separator: "\n"))
        }
    }

    @Test func theNotLoopbackRefusalIsTheServersWords() async throws {
        let documented = try #require(try Self.blocks("").first { $0.heading == "Standalone: `stub-server`" && $0.text.contains("refusing") })
        let output = try await runProduct("stub-server", ["--mappings", "stubs.json", "--host", "0.0.0.0"])
        #expect(output.stderr.components(separatedBy: "\n").first == documented.lines.first)
    }
}
