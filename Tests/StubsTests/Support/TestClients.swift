import Foundation
import Harness
import HarnessSystem
import TestSupport
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
    private struct State {
        /// The request's outcome, written once by the URLSession callback.
        var outcome: Result<(Data, HTTPURLResponse), any Error>?
        /// The session was invalidated after the outcome came: the thread is done.
        var isFinished = false
    }

    private let state = Locked(State())

    init(_ url: URL, timeout: TimeInterval = 10) {
        let thread = Thread { [state] in
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
                state.withLockNotifying { $0.outcome = outcome }
            }.resume()
            state.wait(until: { $0.outcome != nil })
            session.finishTasksAndInvalidate()
            state.withLockNotifying { $0.isFinished = true }
        }
        thread.start()
    }

    /// The response, once the request ended.
    var value: (Data, HTTPURLResponse) {
        get async throws {
            try await BlockingWork.run { [state] in
                state.wait(until: { $0.isFinished })
                return try state.withLock { $0.outcome! }.get()
            }
        }
    }
}

/// Fetches `url` and returns the body as text.
func text(_ url: URL) async throws -> String {
    String(decoding: try await fetch(url).0, as: UTF8.self)
}


/// Runs /usr/bin/curl with `arguments` (`-sS` added).
func curl(_ arguments: [String], stdin: Data? = nil) async throws -> ProgramOutput {
    try await runProgram("/usr/bin/curl", ["-sS", "--max-time", "20"] + arguments, input: stdin)
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
