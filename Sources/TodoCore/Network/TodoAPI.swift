import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP client of the todo service: `GET <base>/todos`.
///
/// ```swift
/// let api = TodoAPI(baseURL: URL(string: "http://127.0.0.1:8080")!, timeout: 5)
/// let todos = try await api.fetchTodos()
/// ```
public struct TodoAPI: Sendable {
    /// The public service the app talks to unless told otherwise.
    public static let defaultBaseURL = URL(string: "https://jsonplaceholder.typicode.com")!

    /// The service's root; `/todos` is appended to it.
    public let baseURL: URL
    /// How long a request may wait for the server before it fails with ``TodoAPIError/timedOut``.
    public let timeout: TimeInterval
    /// Which HTTP stack fetches: see ``Transport``.
    public let transport: Transport
    private let session: URLSession?

    /// The HTTP stack a fetch goes through.
    public enum Transport: Sendable, CaseIterable {
        /// `http://` through the app's own small client where URLSession is FoundationNetworking
        /// (Linux), which keeps a core busy while it waits for an answer; URLSession otherwise.
        case automatic
        /// Always URLSession.
        case urlSession
        /// Always the app's own client (`http://` only).
        case plainHTTP
    }

    /// Creates a client. By default each fetch uses a cache-less session of its own, made when
    /// the fetch starts (creating one costs milliseconds the app need not spend at launch).
    /// Giving a `session` means URLSession is used.
    public init(baseURL: URL = TodoAPI.defaultBaseURL, timeout: TimeInterval = 10, session: URLSession? = nil,
                transport: Transport = .automatic) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.session = session
        self.transport = session == nil ? transport : .urlSession
    }

    /// Whether a fetch of `todosURL` goes through ``PlainHTTPClient``.
    var usesPlainHTTP: Bool {
        switch transport {
        case .urlSession: return false
        case .plainHTTP: return true
        case .automatic:
            #if canImport(FoundationNetworking)
            return baseURL.scheme?.lowercased() == "http"
            #else
            return false
            #endif
        }
    }

    private func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        return URLSession(configuration: configuration)
    }

    /// The address asked for: the base URL with `todos` appended.
    public var todosURL: URL { baseURL.appendingPathComponent("todos") }

    /// Fetches and decodes the todo list.
    public func fetchTodos() async throws(TodoAPIError) -> [Todo] {
        let (status, body) = usesPlainHTTP ? try await fetchPlain() : try await fetchWithURLSession()
        guard (200 ..< 300).contains(status) else {
            throw .badStatus(status)
        }
        do {
            return try JSONDecoder().decode([Todo].self, from: body)
        } catch {
            throw .undecodable(DecodingDiagnostics.describe(error))
        }
    }

    private func fetchPlain() async throws(TodoAPIError) -> (Int, Data) {
        let response = try await PlainHTTPClient(timeout: timeout).get(todosURL, headers: [("Accept", "application/json")])
        return (response.status, Data(response.body))
    }

    private func fetchWithURLSession() async throws(TodoAPIError) -> (Int, Data) {
        var request = URLRequest(url: todosURL, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let session = self.session ?? makeSession()
        defer { if self.session == nil { session.finishTasksAndInvalidate() } }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw TodoAPIError(transportError: error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw .transport("the answer was not HTTP")
        }
        return (http.statusCode, data)
    }
}

/// Why fetching the todos failed; each case reads well under `Oops`.
public enum TodoAPIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server did not answer in time.
    case timedOut
    /// No connection, or it broke before a full answer: the words say which.
    case transport(String)
    /// The server answered with a status outside 200-299.
    case badStatus(Int)
    /// The server answered 2xx with a body that is not a list of todos.
    case undecodable(String)

    init(transportError error: any Error) {
        guard let urlError = error as? URLError else {
            self = .transport(error.localizedDescription)
            return
        }
        switch urlError.code {
        case .timedOut:
            self = .timedOut
        case .cannotConnectToHost:
            self = .transport("could not connect to the server")
        case .networkConnectionLost:
            self = .transport("the connection was closed before an answer")
        case .badServerResponse:
            self = .transport("the server sent something that is not HTTP")
        case .cannotFindHost, .dnsLookupFailed:
            self = .transport("the server's name could not be found")
        case .notConnectedToInternet:
            self = .transport("no network")
        default:
            self = .transport(urlError.localizedDescription)
        }
    }

    public var description: String {
        switch self {
        case .timedOut:
            "The server did not answer in time."
        case .transport(let reason):
            "Network error: \(reason)."
        case .badStatus(let status):
            "The server answered \(status) \(HTTPURLResponse.localizedString(forStatusCode: status).capitalized)."
        case .undecodable(let reason):
            "The server's answer is not a todo list: \(reason)."
        }
    }
}
