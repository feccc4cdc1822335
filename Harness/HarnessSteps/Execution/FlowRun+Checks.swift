import Foundation
import HarnessCore
import HarnessSystem

extension FlowRun {
    // MARK: - file

    /// The app's storage sandbox.
    private var sandbox: Sandbox {
        get throws(FlowStepFailure) {
            guard let sandbox = app?.sandbox ?? pipedApp?.sandbox else {
                throw FlowStepFailure("the app is not running (no launch yet)", showsScreen: false)
            }
            return sandbox
        }
    }

    /// `file NAME exists`.
    package func fileExists(_ name: String) throws {
        let sandbox = try sandbox
        guard sandbox.exists(name) else {
            throw FlowStepFailure("the sandbox has no \(name)", details: Self.listing(of: sandbox.url), showsScreen: false)
        }
    }

    /// `file NAME missing`.
    package func fileMissing(_ name: String) throws {
        let sandbox = try sandbox
        if sandbox.exists(name) {
            let size = (try? sandbox.read(name).count).map { " (\($0) bytes)" } ?? ""
            throw FlowStepFailure("the sandbox holds \(name)\(size)", showsScreen: false)
        }
    }

    /// `file NAME equals FILE`: byte for byte.
    package func fileEquals(_ name: String, _ file: FlowFileReference) throws {
        let sandbox = try sandbox
        guard sandbox.exists(name) else {
            throw FlowStepFailure("the sandbox has no \(name)", details: Self.listing(of: sandbox.url), showsScreen: false)
        }
        let actual: Data
        do {
            actual = try sandbox.read(name)
        } catch {
            throw FlowStepFailure("cannot read \(name) in the sandbox: \(error)", showsScreen: false)
        }
        let expected = try Self.read(file)
        guard actual != expected else { return }
        let decode = { (data: Data) in String(data: data, encoding: .utf8) }
        var details = "expected (\(file.written)): \(expected.count) bytes, actual: \(actual.count) bytes"
        if let expectedText = decode(expected), let actualText = decode(actual) {
            details += "\n" + (SnapshotDiffing<String>.lines.diff(expectedText, actualText) ?? "(they differ only in a final newline)")
        }
        throw FlowStepFailure("\(name) differs from \(file.written)", details: details, showsScreen: false)
    }

    /// The files of the sandbox, for messages.
    package static func listing(of directory: URL) -> String {
        let names = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []).sorted()
        return "sandbox \(directory.path): " + (names.isEmpty ? "(empty)" : names.joined(separator: ", "))
    }

    // MARK: - requests

    /// `requests METHOD PATH count N`: when N is at least 1, first waits (up to the timeout)
    /// for one such request, then compares the journal's count.
    package func requestCount(_ method: String, _ path: String, _ count: Int) async throws {
        guard let server = stubServer else {
            throw FlowStepFailure("the flow has no stub server", showsScreen: false)
        }
        if let (actual, details) = await server.checkRequestCount(method: method, target: path, count: count, timeout: timeout) {
            throw FlowStepFailure("the stub server received \(actual) such request\(actual == 1 ? "" : "s"), expected \(count)",
                                  details: details, showsScreen: false)
        }
    }
}
