import Foundation
import Testing
import HarnessSystem
@testable import Stubs

/// A client cannot hold a connection by sending nothing or by trickling a request: the request
/// timeout closes an idle connection and answers 408 to a request that is not complete in
/// time, however many bytes of it keep arriving. The tests set a tiny timeout and wait for the
/// server's answer or close (their read deadlines only catch a server that never acts).
@Suite struct StubServerRequestTimeoutTests {
    static let options = StubServer.Options(maxHeaderBytes: 4096, requestTimeout: .milliseconds(100), idleTimeout: .milliseconds(100))

    @Test func anIdleConnectionIsClosed() throws {
        try StubServer.with(options: Self.options) { server in
            let client = try RawClient(server)
            #expect(try client.readToEnd(timeout: 60).isEmpty, "closed without an answer")
            client.close()
            #expect(server.waitUntilOpenConnections(0))
        }
    }

    @Test func aKeptAliveConnectionIsClosedOnceIdle() throws {
        try StubServer.with(options: Self.options) { server in
            server.stub(.get("/n"), .text("ok"))
            let client = try RawClient(server)
            try client.send("GET /n HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try client.readResponse(timeout: 60).bodyText == "ok")
            #expect(try client.readToEnd(timeout: 60).isEmpty)
        }
    }

    @Test(arguments: [
        "GET /n HTTP/1.1\r\nHo",
        "POST /n HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc",
        "POST /n HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
    ])
    func aPartialRequestGets408(partial: String) throws {
        try StubServer.with(options: Self.options) { server in
            server.stub(.any, .text("ok"))
            let client = try RawClient(server)
            try client.send(partial)
            let response = try client.readResponse(timeout: 60)
            #expect(response.status == 408)
            #expect(response.headers["Connection"] == "close")
            #expect(response.bodyText.contains("the request was not complete within the request timeout"))
            #expect(try client.readToEnd(timeout: 60).isEmpty)
            #expect(server.requests.isEmpty)
        }
    }

    /// A slow-loris client: one header byte at a time, each a few milliseconds after the last,
    /// never finishing. The deadline counts from the request's first byte, so the trickle does
    /// not move it; without one, the headers would grow until the 4 KiB limit answered 431.
    @Test func aTricklingRequestIsCutOffAtItsDeadline() throws {
        try StubServer.with(options: Self.options) { server in
            let client = try RawClient(server)
            try client.send("GET /n HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            let sent = try Self.trickle("a", to: client)
            let response = try client.readResponse(timeout: 60)
            #expect(response.status == 408, "after \(sent) trickled bytes: \(response.status) \(response.bodyText)")
        }
    }

    /// Blank lines before a request are skipped, and do not move the idle deadline either.
    @Test func tricklingBlankLinesDoesNotExtendTheIdleDeadline() throws {
        try StubServer.with(options: Self.options) { server in
            let client = try RawClient(server)
            let sent = try Self.trickle("\r\n", to: client)
            #expect(sent < Self.trickleLimit, "the server never acted")
            #expect(try client.readToEnd(timeout: 60).isEmpty)
        }
    }

    static let trickleLimit = 8192

    /// The idle timeout, not the request timeout, closes a connection that sent nothing.
    @Test func theIdleTimeoutClosesAnIdleConnection() throws {
        try StubServer.with(options: .init(requestTimeout: .seconds(3600), idleTimeout: .milliseconds(100))) { server in
            let client = try RawClient(server)
            #expect(try client.readToEnd(timeout: 60).isEmpty, "closed without an answer")
        }
    }

    /// The request timeout, not the idle timeout, cuts off a request that began.
    @Test func theRequestTimeoutCutsOffAPartialRequest() throws {
        try StubServer.with(options: .init(requestTimeout: .milliseconds(100), idleTimeout: .seconds(3600))) { server in
            let client = try RawClient(server)
            try client.send("GET /n HTTP/1.1\r\nHo")
            #expect(try client.readResponse(timeout: 60).status == 408)
        }
    }

    /// Sends `piece` again and again, each a few milliseconds after the last, until the server
    /// answers or closes (or `trickleLimit` pieces went out); returns how many were sent.
    static func trickle(_ piece: String, to client: RawClient) throws -> Int {
        var sent = 0
        while try !client.hasInput(withinMilliseconds: 5) && sent < trickleLimit {
            do {
                try client.send(piece)
            } catch let error as SystemError where error.errno == ECONNRESET || error.errno == EPIPE {
                break  // closed between the check and the send
            }
            sent += 1
        }
        return sent
    }
}
