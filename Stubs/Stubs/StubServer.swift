import Foundation
import HarnessSystem

/// An HTTP/1.1 stub server for tests, listening on loopback only: WireMock in Swift.
///
/// ```swift
/// let server = try StubServer()                       // 127.0.0.1, ephemeral port, already listening
/// defer { server.stop() }
/// try server.stub(.get("/todos"), .json(todos))
/// server.stub(.get("/todos"), .sequence([.status(500), .status(200)]), priority: 1)
/// // ... point the app at server.baseURL ...
/// try server.verify(.get("/todos"), count: .exactly(2))
/// ```
///
/// Safe to use from many threads and tasks at once: the connections are served with
/// non-blocking sockets on the process's one event loop, which every server shares (a server
/// starts no thread); the loop matches each request against the stubs defined when it arrives
/// and journals it before answering, so `requests` and `verify` see a request once its answer
/// started.
///
/// Stub selection: among matching stubs with uses left, the lowest `priority` number wins
/// (1 beats 5, like WireMock; the default is 5); among equal priorities the stub added last wins.
/// A request no stub matches gets a 404 whose body is a near-miss report.
public final class StubServer: Sendable {
    /// Server settings.
    public struct Options: Sendable {
        /// A request body over this many bytes gets 413 and the connection is closed.
        public var maxBodyBytes: Int
        /// A request line plus headers over this many bytes gets 431.
        public var maxHeaderBytes: Int
        /// Serves the `/__admin/` API (see docs/STUBS.md); off by default in process.
        public var enablesAdminAPI: Bool
        /// How long a closing connection waits for the client's FIN before closing anyway.
        public var lingerTimeout: Duration
        /// The folder `bodyFile` paths of mappings added through the admin API are relative to
        /// and must stay inside; nil (the default) refuses `bodyFile` there.
        public var filesDirectory: URL?
        /// How long a connection may take to send a whole request (head and body), counted from
        /// its first byte: past it, the partial request is answered 408 and the connection closed,
        /// however many bytes keep trickling in.
        public var requestTimeout: Duration
        /// How long a connection may stay open without a byte of a next request: past it, it is
        /// closed. Longer than the request timeout, since a test may think for minutes between
        /// two requests of its program on a loaded machine, and a keep-alive client then races
        /// the close.
        public var idleTimeout: Duration
        /// Whether a host that is not loopback may be listened on (only `stub-server
        /// --allow-remote` sets it; tests listen on loopback).
        package var allowsRemoteClients = false

        /// Creates options; every argument has a sensible default.
        public init(
            maxBodyBytes: Int = 8 * 1024 * 1024, maxHeaderBytes: Int = 64 * 1024, enablesAdminAPI: Bool = false,
            lingerTimeout: Duration = .seconds(2), filesDirectory: URL? = nil, requestTimeout: Duration = .seconds(30),
            idleTimeout: Duration = .seconds(300)
        ) {
            self.maxBodyBytes = maxBodyBytes
            self.maxHeaderBytes = maxHeaderBytes
            self.enablesAdminAPI = enablesAdminAPI
            self.lingerTimeout = lingerTimeout
            self.filesDirectory = filesDirectory
            self.requestTimeout = requestTimeout
            self.idleTimeout = idleTimeout
        }
    }

    /// The default stub priority (lower numbers win).
    public static let defaultPriority = 5

    /// The address listened on.
    public let host: StubHost
    /// The port listened on (the ephemeral port chosen when 0 was asked).
    public let port: UInt16
    /// `http://127.0.0.1:PORT` (or `http://[::1]:PORT`), without a trailing slash.
    public let baseURL: URL
    let core: StubServerCore
    let driver: ConnectionDriver
    private let stopFlag = Locked(false)

    /// Starts listening on `host`:`port` (0 picks a free port) and serving at once.
    /// - Throws: `StubServerError.notLoopback` for a host that is not loopback (127.0.0.0/8 or ::1).
    public init(host: StubHost = .loopbackIPv4, port: UInt16 = 0, options: Options = Options()) throws {
        guard host.isLoopback || options.allowsRemoteClients else { throw StubServerError.notLoopback(host.address) }
        let fd: Int32
        let boundPort: UInt16
        do throws(SystemError) {
            fd = try Posix.makeStreamSocket(host.family, nonBlocking: true)
            do throws(SystemError) {
                try Posix.setReuseAddress(fd)
                if host.isIPv6 { Posix.setIPv6Only(fd) }
                try Posix.bind(fd, host.family, host: host.address, port: port)
                try Posix.listen(fd, backlog: 1024)
                boundPort = try Posix.localPort(fd)
            } catch {
                Posix.closeIgnoringErrors(fd)
                throw error
            }
        } catch {
            throw StubServerError.cannotListen(host: host.address, port: port, error)
        }
        let core = StubServerCore(options: options)
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: options.maxHeaderBytes, maxBodyBytes: options.maxBodyBytes)
        let driver = ConnectionDriver(
            listener: fd, handler: core, limits: limits, lingerTimeout: options.lingerTimeout,
            requestTimeout: options.requestTimeout, idleTimeout: options.idleTimeout)
        // Weak: the driver holds the core; a stub removed after the server is gone releases nothing.
        core.whenStubsRemoved { [weak driver] ids in driver?.releaseHangs(ids) }
        self.core = core
        self.driver = driver
        self.host = host
        self.port = boundPort
        self.baseURL = URL(string: "http://\(host.urlHost):\(boundPort)")!
        driver.start()
    }

    deinit { stop() }

    /// Stops serving: closes the listener (freeing the port) and every open connection (hangs
    /// included), and fails pending `waitForRequest` calls. Idempotent; also runs on deinit.
    ///
    /// Blocks the caller until the event loop closed them (at once when called on the loop).
    public func stop() {
        guard markStopped() else { return }
        driver.stop()
        core.failWaitersOnStop()
    }

    /// ``stop()``, awaited instead of blocking the caller's thread.
    public func stopped() async {
        guard markStopped() else { return }
        await driver.stopped()
        core.failWaitersOnStop()
    }

    /// Marks the server stopped; false when it already was.
    private func markStopped() -> Bool {
        stopFlag.withLock { stopped -> Bool in
            defer { stopped = true }
            return !stopped
        }
    }

    /// How many client connections are open right now (hanging ones included).
    public var openConnectionCount: Int { driver.gauge.value }

    /// Blocks until exactly `count` client connections are open; false after `timeout`, which
    /// only catches a hang (10 s ran out once while a loaded machine closed 400 connections).
    func waitUntilOpenConnections(_ count: Int, timeout: TimeInterval = 60) -> Bool {
        driver.gauge.wait(timeout: timeout) { $0 == count }
    }

    /// How many requests were received and are not answered in full yet: a delayed answer
    /// counts until its last byte is sent, a hang does not (nothing will answer it).
    public var pendingAnswerCount: Int { driver.pendingAnswers.value }

    /// ``pendingAnswerCount`` plus the requests begun and not complete, after the server read
    /// what its clients sent so far (it accepts the connections waiting and reads every idle
    /// one first). A client that is asleep sent all it will: what it sent counts.
    public func pendingAnswerCountAfterReading() async -> Int {
        await driver.pendingAnswersAfterReading()
    }

    /// Returns once no answer is pending (``pendingAnswerCount`` is 0; at once when it is), or
    /// when the task is cancelled. Event driven: the server's loop wakes it.
    public func waitUntilNoPendingAnswer() async {
        await driver.pendingAnswers.waitUntilNone()
    }

    /// Whether `stop()` was called.
    public var isStopped: Bool { stopFlag.withLock { $0 } }

    /// The absolute URL of `path` (which may carry a query), e.g. `url("/todos?page=2")`.
    public func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + (path.hasPrefix("/") ? path : "/" + path))!
    }

    // MARK: - Scoped use

    /// Runs `body` with a started server and stops it afterwards, even when `body` throws.
    public static func with<Result>(
        host: StubHost = .loopbackIPv4, port: UInt16 = 0, options: Options = Options(),
        _ body: (StubServer) throws -> Result
    ) throws -> Result {
        let server = try StubServer(host: host, port: port, options: options)
        defer { server.stop() }
        return try body(server)
    }

    /// Runs `body` with a started server and stops it afterwards, even when `body` throws.
    public static func with<Result>(
        host: StubHost = .loopbackIPv4, port: UInt16 = 0, options: Options = Options(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (StubServer) async throws -> Result
    ) async throws -> Result {
        let server = try StubServer(host: host, port: port, options: options)
        do {
            let result = try await body(server)
            await server.stopped()
            return result
        } catch {
            await server.stopped()
            throw error
        }
    }

    // MARK: - Stubs

    /// Answers requests matching `pattern` with `response`.
    ///
    /// - Parameters:
    ///   - priority: lower numbers win over higher ones; among equal priorities the latest stub wins.
    ///   - uses: after this many matches the stub stops matching (nil: unlimited).
    ///   - id: a chosen id (an existing stub with it is replaced); a unique one by default.
    @discardableResult
    public func stub(
        _ pattern: RequestPattern, _ response: StubResponse, priority: Int = StubServer.defaultPriority,
        uses: Int? = nil, id: StubID? = nil
    ) -> StubID {
        stub(pattern, .respond(response), priority: priority, uses: uses, id: id)
    }

    /// Handles requests matching `pattern` with `behaviour` (hang, faults, sequences, delays).
    @discardableResult
    public func stub(
        _ pattern: RequestPattern, _ behaviour: StubBehaviour, priority: Int = StubServer.defaultPriority,
        uses: Int? = nil, id: StubID? = nil
    ) -> StubID {
        let id = id ?? .unique()
        core.addStub(id: id, pattern: pattern, behaviour: behaviour, priority: priority, uses: uses)
        return id
    }

    /// Removes a stub; requests hanging on it are matched again against the remaining stubs.
    /// Returns false when no such stub is registered.
    @discardableResult
    public func remove(_ id: StubID) -> Bool { core.removeStub(id) }

    /// Removes every stub (releasing hangs) and keeps the journal.
    public func removeAllStubs() { core.removeAllStubs() }

    /// Removes every stub and clears the journal.
    public func reset() {
        core.removeAllStubs()
        core.clearJournal()
    }

    /// The registered stubs, in the order they were added (used-up stubs included until removed).
    public var stubs: [StubSummary] {
        core.summaries
    }
}
