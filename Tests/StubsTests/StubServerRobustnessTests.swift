import Foundation
import Testing
@testable import Stubs
import HarnessSystem

/// Raw-socket tests: malformed, partial, pipelined and hostile input, many connections.
@Suite struct StubServerRobustnessTests {
    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        try StubServer.with { server in
            server.stub(.get("/n"), .text("ok"))
            let client = try RawClient(server)
            for _ in 0..<5 {
                try client.send("GET /n HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = try client.readResponse()
                #expect(response.status == 200)
                #expect(response.bodyText == "ok")
            }
            #expect(server.requests.count == 5)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        try StubServer.with { server in
            server.stub(.get("/slow"), StubResponse.text("slow").delayed(by: .milliseconds(50)))
            server.stub(.get("/fast"), .text("fast"))
            server.stub(.post("/echo"), .text("posted"))
            let client = try RawClient(server)
            try client.send(
                "GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n"
                + "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabcHEAD /fast HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            #expect(try client.readResponse().bodyText == "slow")
            #expect(try client.readResponse().bodyText == "fast")
            #expect(try client.readResponse().bodyText == "posted")
            let head = try client.readResponse(headRequest: true)
            #expect(head.headers["Content-Length"] == "4")
            #expect(head.body.isEmpty)
            let last = try client.readResponse()
            #expect(last.bodyText == "fast")
            #expect(last.headers["Connection"] == "close")
            #expect(try client.readToEnd().isEmpty, "the server closes after Connection: close")
            #expect(server.requests.map(\.method) == ["GET", "GET", "POST", "HEAD", "GET"])
            #expect(server.requests[2].bodyText == "abc")
        }
    }

    @Test(arguments: [1, 3, 17])
    func partialInputIsReassembled(pieceSize: Int) throws {
        try StubServer.with { server in
            server.stub(.put("/upload").withBody(.exact("hello world")), .text("stored"))
            let client = try RawClient(server)
            let request = Array("PUT /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n".utf8)
            var offset = 0
            while offset < request.count {
                let end = min(request.count, offset + pieceSize)
                try client.send(Array(request[offset..<end]))
                offset = end
            }
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.bodyText == "stored")
        }
    }

    @Test func expectContinueGetsAnInterimResponse() throws {
        try StubServer.with { server in
            server.stub(.post("/big"), .text("received"))
            let client = try RawClient(server)
            try client.send("POST /big HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            // The interim response comes before we send the body.
            let interim = try client.readInterim()
            #expect(interim.hasPrefix("HTTP/1.1 100 Continue"))
            try client.send("data")
            #expect(try client.readResponse().bodyText == "received")
        }
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET /x HTTP/1.1 trailing\r\n\r\n",
        "GET /x HTTP/1.1\r\nno colon\r\n\r\n",
        "\u{0}\u{1}\u{2}\u{3}\r\n\r\n",
        "POST /x HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
    ])
    func malformedRequestsGet400ThenClose(input: String) throws {
        try StubServer.with { server in
            let client = try RawClient(server)
            try client.send(input + "GET /after HTTP/1.1\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.status == 400)
            #expect(response.headers["Connection"] == "close")
            #expect(try client.readToEnd().isEmpty, "nothing after the 400, and the connection closes")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func headersOver64KiBGet431() throws {
        try StubServer.with { server in
            let client = try RawClient(server)
            try client.send("GET /x HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 65 * 1024) + "\r\n\r\n")
            #expect(try client.readResponse().status == 431)
            #expect(try client.waitForClose())
        }
    }

    @Test func bodiesOverTheLimitGet413() throws {
        try StubServer.with(options: .init(maxBodyBytes: 1000)) { server in
            server.stub(.any, .text("ok"))
            let declared = try RawClient(server)
            try declared.send("POST /x HTTP/1.1\r\nContent-Length: 1001\r\n\r\n")
            #expect(try declared.readResponse().status == 413)
            let chunked = try RawClient(server)
            try chunked.send("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3e8\r\n" + String(repeating: "x", count: 1000) + "\r\n1\r\n")
            #expect(try chunked.readResponse().status == 413)
            let fits = try RawClient(server)
            try fits.send("POST /x HTTP/1.1\r\nContent-Length: 1000\r\n\r\n" + String(repeating: "x", count: 1000))
            #expect(try fits.readResponse().status == 200)
        }
    }

    @Test func http10ClosesAfterTheResponse() throws {
        try StubServer.with { server in
            server.stub(.get("/old"), .text("old"))
            let client = try RawClient(server)
            try client.send("GET /old HTTP/1.0\r\n\r\n")
            #expect(try client.readResponse().bodyText == "old")
            #expect(try client.readToEnd().isEmpty)
        }
    }

    @Test func aStalledOrHangingClientNeverBlocksOthers() throws {
        try StubServer.with { server in
            server.stub(.get("/hang"), .hang)
            server.stub(.get("/ok"), .text("ok"))
            let stalled = try RawClient(server)
            try stalled.send("GET /ok HTTP/1.1\r\nHo")  // ... and never more.
            let hanging = try RawClient(server)
            try hanging.send("GET /hang HTTP/1.1\r\n\r\n")
            let slowReader = try RawClient(server)
            server.stub(.get("/huge"), .bytes(Data(count: 8 * 1024 * 1024)))
            try slowReader.send("GET /huge HTTP/1.1\r\n\r\n")  // ... and never reads.
            for _ in 0..<3 {
                let other = try RawClient(server)
                try other.send("GET /ok HTTP/1.1\r\n\r\n")
                #expect(try other.readResponse().bodyText == "ok")
            }
            #expect(server.openConnectionCount >= 3)
        }
    }

    @Test func servesTwoHundredConcurrentConnections() throws {
        try StubServer.with { server in
            server.stub(.get(.prefix("/c/")), .text("ok"))
            let clients = try (0..<200).map { _ in try RawClient(server) }
            #expect(server.waitUntilOpenConnections(200), "all 200 are accepted and open at once")
            for (index, client) in clients.enumerated() { try client.send("GET /c/\(index) HTTP/1.1\r\n\r\n") }
            for client in clients.reversed() { #expect(try client.readResponse().bodyText == "ok") }
            #expect(server.requests.count == 200)
            for client in clients { client.close() }
            #expect(server.waitUntilOpenConnections(0))
        }
    }

    @Test func tenThousandSequentialConnectionsLeakNoDescriptor() async throws {
        try await StubServer.with { server in
            server.stub(.get("/n"), .text("ok"))
            let before = Posix.openDescriptorCount()
            // Seconds of blocking socket calls: done on a thread of their own, so the few threads
            // of the cooperative pool stay free for the tests running meanwhile.
            let failures = try await BlockingWork.run { () throws -> [String] in
                var failures: [String] = []
                for index in 0..<10_000 {
                    let client = try RawClient(server)
                    // Alternate: the client closes first, or asks the server to close.
                    try client.send(index % 2 == 0 ? "GET /n HTTP/1.1\r\n\r\n" : "GET /n HTTP/1.1\r\nConnection: close\r\n\r\n")
                    let response = try client.readResponse()
                    if response.status != 200 { failures.append("request \(index) got \(response.status)") }
                    client.close()
                }
                return failures
            }
            #expect(failures.isEmpty, "\(failures.prefix(5))")
            #expect(server.waitUntilOpenConnections(0), "the server closed all 10,000 connections")
            if let before, let after = Posix.openDescriptorCount() {
                // Other suites run in parallel and hold up to a few hundred descriptors at a time
                // (the 200-connection test alone holds 400); a leak here would be thousands.
                #expect(after < before + 2000, "descriptors before: \(before), after: \(after)")
            }
            #expect(server.requests.count == 10_000)
        }
    }

    @Test func neverCrashesOnRandomBytes() throws {
        try StubServer.with(options: .init(maxBodyBytes: 4096, maxHeaderBytes: 2048, lingerTimeout: .milliseconds(100))) { server in
            server.stub(.any, .text("ok"))
            var generator = SeededGenerator(seed: 7)
            let fragments = ["GET ", "POST ", "/x", " HTTP/1.1", "\r\n", "Content-Length: 3", "Transfer-Encoding: chunked",
                             "Expect: 100-continue", ": ", "0\r\n", "ffff\r\n", "\n", "\r", " ", "\u{0}", "%", "é"]
            for round in 0..<400 {
                let client = try RawClient(server)
                var bytes: [UInt8] = []
                let pieces = Int.random(in: 1...40, using: &generator)
                for _ in 0..<pieces {
                    if round % 2 == 0 {
                        bytes += (0..<Int.random(in: 1...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                    } else {
                        bytes += Array(fragments.randomElement(using: &generator)!.utf8)
                    }
                }
                try? client.send(bytes)
                client.resetClose()
            }
            #expect(server.waitUntilOpenConnections(0))
            let probe = try RawClient(server)
            try probe.send("GET /alive HTTP/1.1\r\n\r\n")
            #expect(try probe.readResponse().bodyText == "ok")
        }
    }

    @Test func resetFaultSendsATCPReset() throws {
        try StubServer.with { server in
            server.stub(.get("/reset"), .reset)
            server.stub(.get("/garbage"), .garbage(Data("not http".utf8)))
            server.stub(.get("/close"), .closeConnection)
            let reset = try RawClient(server)
            try reset.send("GET /reset HTTP/1.1\r\n\r\n")
            #expect(throws: SystemError(operation: "read", errno: ECONNRESET)) { _ = try reset.readToEnd() }
            let garbage = try RawClient(server)
            try garbage.send("GET /garbage HTTP/1.1\r\n\r\n")
            #expect(String(decoding: try garbage.readToEnd(), as: UTF8.self) == "not http")
            let close = try RawClient(server)
            try close.send("GET /close HTTP/1.1\r\n\r\n")
            #expect(try close.readToEnd().isEmpty)
        }
    }

    @Test func delayedFaultWaitsFirst() throws {
        try StubServer.with { server in
            server.stub(.get("/x"), .delayed(.milliseconds(100), .closeConnection))
            let client = try RawClient(server)
            let clock = ContinuousClock()
            let start = clock.now
            try client.send("GET /x HTTP/1.1\r\n\r\n")
            #expect(try client.readToEnd().isEmpty)
            #expect(clock.now - start >= .milliseconds(100))
        }
    }
}

extension RawClient {
    /// Reads the interim 100 response head (everything up to its blank line).
    func readInterim(timeout: TimeInterval = 10) throws -> String {
        var received: [UInt8] = []
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !(received.count >= 4 && Array(received.suffix(4)) == [13, 10, 13, 10]) {
            var descriptors = [Posix.pollDescriptor(fd: fd, events: .readable)]
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw Failure(description: "no interim response") }
            _ = try Posix.poll(&descriptors, timeoutMilliseconds: Int32(remaining * 1000) + 1)
            var byte: [UInt8] = [0]
            if !descriptors[0].returnedEvents.isEmpty {
                guard try Posix.read(fd, into: &byte) == 1 else { throw Failure(description: "closed") }
                received.append(byte[0])
            }
        }
        return String(decoding: received, as: UTF8.self)
    }
}
