import Foundation
import Testing
import Harness
@testable import HarnessCore

@Suite struct SandboxTests {
    @Test func seedReadListAndRemove() throws {
        let sandbox = try Sandbox(keepOnFailure: false)
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        try sandbox.write("[]", to: "todos.json")
        try sandbox.write(Data([1, 2, 3]), to: "cache/blob.bin")
        let seedFile = FileManager.default.temporaryDirectory.appendingPathComponent("seed-\(UUID().uuidString).txt")
        try Data("seeded".utf8).write(to: seedFile)
        defer { try? FileManager.default.removeItem(at: seedFile) }
        try sandbox.seed(file: seedFile, named: "notes.txt")

        #expect(try sandbox.contents() == ["cache/blob.bin", "notes.txt", "todos.json"])
        #expect(try sandbox.readText("notes.txt") == "seeded")
        #expect(try sandbox.read("cache/blob.bin") == Data([1, 2, 3]))
        #expect(sandbox.exists("cache"))
        #expect(throws: SandboxError.self) { try sandbox.read("missing.json") }

        sandbox.close(failed: false)
        #expect(!FileManager.default.fileExists(atPath: sandbox.path))
        #expect(throws: SandboxError.removed(sandbox.path)) { try sandbox.contents() }
    }

    @Test(arguments: ["", "/etc/passwd", "../escape", "a/../../b", "./x"])
    func namesMustStayInside(name: String) throws {
        let sandbox = try Sandbox(keepOnFailure: false)
        defer { sandbox.remove() }
        #expect(throws: SandboxError.invalidName(name)) { try sandbox.write("x", to: name) }
    }

    @Test func keptOnFailureWhenAsked() throws {
        let sandbox = try Sandbox(keepOnFailure: true)
        defer { try? FileManager.default.removeItem(atPath: sandbox.path) }
        let message = sandbox.close(failed: true)
        #expect(message?.contains(sandbox.path) == true)
        #expect(FileManager.default.fileExists(atPath: sandbox.path))
    }

    @Test func removedOnSuccessEvenWhenKeepingIsOn() throws {
        let sandbox = try Sandbox(keepOnFailure: true)
        #expect(sandbox.close(failed: false) == nil)
        #expect(!FileManager.default.fileExists(atPath: sandbox.path))
    }
}
