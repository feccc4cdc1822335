import Foundation
import Harness
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
func fetch(
    _ url: URL, method: String = "GET", body: Data? = nil, headers: [String: String] = [:],
    session: URLSession = makeSession()
) async throws -> (Data, HTTPURLResponse) {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse else { throw RawClient.Failure(description: "not an HTTP response") }
    return (data, http)
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
