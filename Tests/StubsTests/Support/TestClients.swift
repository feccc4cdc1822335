import Foundation
import Harness
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Stubs

/// A URLSession without caches, cookies or retries, with a short timeout.
func makeSession(timeout: TimeInterval = 10) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpShouldSetCookies = false
    return URLSession(configuration: configuration)
}

/// Fetches `url` with URLSession; returns the body and the HTTP response.
///
/// The session is invalidated once the request ended, as the sample app does: on Linux every
/// URLSession keeps a libcurl multi handle and its Dispatch sources on a work queue that all
/// sessions share, and sessions that are never invalidated pile up there for the rest of the
/// test process (swift-corelibs-foundation#3497, "unshared URLSession ties up threads").
func fetch(
    _ url: URL, method: String = "GET", body: Data? = nil, headers: [String: String] = [:],
    timeout: TimeInterval = 10
) async throws -> (Data, HTTPURLResponse) {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let session = makeSession(timeout: timeout)
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse else { throw RawClient.Failure(description: "not an HTTP response") }
    return (data, http)
}

/// A GET started at once on a thread of its own, for tests that wait on the server while the
/// request is in flight: the request leaves even while every thread of Swift's cooperative
/// pool is busy with other tests (an `async let` or `Task` would first need one of them).
final class RequestOnOwnThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private let result = Outcome()

    /// The request's outcome, written once by the URLSession callback.
    private final class Outcome: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Result<(Data, HTTPURLResponse), any Error>?
        func set(_ value: Result<(Data, HTTPURLResponse), any Error>) { lock.withLock { stored = value } }
        func get() throws -> (Data, HTTPURLResponse) { try lock.withLock { stored! }.get() }
    }

    init(_ url: URL, timeout: TimeInterval = 10) {
        let thread = Thread { [finished, result] in
            let session = makeSession(timeout: timeout)
            session.dataTask(with: url) { data, response, error in
                let outcome: Result<(Data, HTTPURLResponse), any Error>
                if let error {
                    outcome = .failure(error)
                } else if let http = response as? HTTPURLResponse {
                    outcome = .success((data ?? Data(), http))
                } else {
                    outcome = .failure(RawClient.Failure(description: "not an HTTP response"))
                }
                result.set(outcome)
                finished.signal()
            }.resume()
            finished.wait()
            session.finishTasksAndInvalidate()
            finished.signal()
        }
        thread.start()
    }

    /// The response, once the request ended.
    var value: (Data, HTTPURLResponse) {
        get async throws {
            try await BlockingWork.run { [finished, result] in
                finished.wait()
                return try result.get()
            }
        }
    }
}

/// Fetches `url` and returns the body as text.
func text(_ url: URL) async throws -> String {
    String(decoding: try await fetch(url).0, as: UTF8.self)
}

/// The result of a finished subprocess.
struct ProcessOutput {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs an executable to completion, collecting its output; the waiting happens off Swift's
/// cooperative pool, so other tests running meanwhile are never starved of threads.
func run(_ executable: String, _ arguments: [String], stdin: Data? = nil) async throws -> ProcessOutput {
    let result = try await PipedProgram.run(executable, arguments: arguments, input: stdin ?? Data())
    return ProcessOutput(status: result.shellStatus, stdout: result.standardOutput, stderr: result.standardError)
}

/// Runs /usr/bin/curl with `arguments` (`-sS` added).
func curl(_ arguments: [String], stdin: Data? = nil) async throws -> ProcessOutput {
    try await run("/usr/bin/curl", ["-sS", "--max-time", "20"] + arguments, stdin: stdin)
}

/// A fresh temporary directory, removed by `body`'s end.
func withTemporaryDirectory<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("stubs-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

/// A todo as the sample app sends it.
struct TodoFixture: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var done: Bool

    static func list(_ count: Int) -> [TodoFixture] {
        (1...count).map { TodoFixture(id: $0, title: "Todo number \($0)", done: $0 % 3 == 0) }
    }
}

/// Runs blocking work (sockets, loops of them) on a thread of its own and awaits its result,
/// so a long test never holds one of the cooperative pool's few threads.
enum BlockingWork {
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.start()
        }
    }
}
