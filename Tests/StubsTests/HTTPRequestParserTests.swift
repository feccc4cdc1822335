import Foundation
import Testing
@testable import Stubs

@Suite struct HTTPRequestParserTests {
    /// Feeds `input` in pieces of `pieceSize` bytes and collects every event.
    private func parse(_ input: [UInt8], pieceSize: Int, limits: HTTPRequestParser.Limits = .init()) -> [String] {
        var parser = HTTPRequestParser(limits: limits)
        var buffer = InputBuffer()
        var events: [String] = []
        var offset = 0
        while offset < input.count {
            let end = min(input.count, offset + pieceSize)
            buffer.append(Array(input[offset..<end]))
            offset = end
            while let event = parser.next(in: &buffer) {
                switch event {
                case .expectContinue: events.append("continue")
                case .request(let request):
                    events.append("\(request.head.method) \(request.head.target) keepAlive=\(request.head.keepAlive) body=\(String(decoding: request.body, as: UTF8.self))")
                case .failure(let failure): events.append("failure \(failure.status)")
                }
            }
        }
        return events
    }

    @Test(arguments: [1, 2, 3, 7, 64, 100_000])
    func parsesPipelinedRequestsSplitAnywhere(pieceSize: Int) {
        let input = Array((
            "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /b?x=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
            + "PUT /c HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: 1\r\n\r\n"
            + "\r\nGET /d HTTP/1.0\r\n\r\n"
            + "GET /e HTTP/1.1\nConnection: close\n\n"
        ).utf8)
        #expect(parse(input, pieceSize: pieceSize) == [
            "GET /a keepAlive=true body=",
            "POST /b?x=1 keepAlive=true body=hello",
            "PUT /c keepAlive=true body=abcde",
            "GET /d keepAlive=false body=",
            "GET /e keepAlive=false body=",
        ])
    }

    @Test func announcesExpectContinueBeforeTheBody() {
        let head = Array("POST /u HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8)
        var parser = HTTPRequestParser()
        var buffer = InputBuffer()
        buffer.append(head)
        guard case .expectContinue = parser.next(in: &buffer) else {
            Issue.record("expected a 100-continue event")
            return
        }
        #expect(parser.next(in: &buffer) == nil)
        buffer.append(Array("abc".utf8))
        guard case .request(let request) = parser.next(in: &buffer) else {
            Issue.record("expected the request")
            return
        }
        #expect(request.body == Array("abc".utf8))
    }

    @Test(arguments: [
        ("GARBAGE\r\n\r\n", 400),
        ("GET /x\r\n\r\n", 400),
        ("GET  /x HTTP/1.1\r\n\r\n", 400),
        ("GET /x HTTP/1.1 extra\r\n\r\n", 400),
        ("G(T /x HTTP/1.1\r\n\r\n", 400),
        ("GET x HTTP/1.1\r\n\r\n", 400),
        ("GET /x HTTP/2.0\r\n\r\n", 505),
        ("GET /x HTTP/1.1\r\nNo colon here\r\n\r\n", 400),
        ("GET /x HTTP/1.1\r\nBad Name: v\r\n\r\n", 400),
        ("GET /x HTTP/1.1\r\nA: b\r\n  folded\r\n\r\n", 400),
        ("GET /x HTTP/1.1\r\nA: b\u{1}c\r\n\r\n", 400),
        ("GET /x HTTP/1.1\rHost: x\r\n\r\n", 400),
        ("POST /x HTTP/1.1\r\nContent-Length: abc\r\n\r\n", 400),
        ("POST /x HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
        ("POST /x HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST /x HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
        ("POST /x HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
        ("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabcd\r\n", 400),
        ("POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffff\r\n", 400),
        ("POST /x HTTP/1.1\r\nExpect: teapot\r\nContent-Length: 1\r\n\r\n", 417),
        ("POST /x HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", 413),
    ])
    func rejectsMalformedInput(input: String, status: Int) {
        let events = parse(Array(input.utf8), pieceSize: 1)
        #expect(events == ["failure \(status)"], "input: \(input.debugDescription)")
    }

    /// Found by fuzzing (Scripts/fuzz.sh http): `HTTP/1.6` gave a head whose minor version was 6,
    /// where 0 or 1 is promised; a higher minor version is read as HTTP/1.1 (RFC 9110 section 2.5).
    @Test func aHigherMinorVersionIsReadAsHTTP11() throws {
        var parser = HTTPRequestParser()
        var buffer = InputBuffer()
        buffer.append(Array("PUT /c HTTP/1.6\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n0\r\n\r\n".utf8))
        guard case .request(let request) = parser.next(in: &buffer) else {
            Issue.record("expected a request")
            return
        }
        #expect(request.head.minorVersion == 1)
        #expect(request.head.keepAlive)
        #expect(request.body == Array("abc".utf8))
    }

    @Test func rejectsHeadersOverTheLimitWith431() {
        let huge = "GET /x HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70 * 1024) + "\r\n\r\n"
        #expect(parse(Array(huge.utf8), pieceSize: 4096) == ["failure 431"])
        // Also when the end of the head never arrives.
        let endless = "GET /x HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70 * 1024)
        #expect(parse(Array(endless.utf8), pieceSize: 4096) == ["failure 431"])
    }

    @Test func rejectsBodiesOverTheLimitWith413() {
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: 65536, maxBodyBytes: 10)
        #expect(parse(Array("POST /x HTTP/1.1\r\nContent-Length: 11\r\n\r\n".utf8), pieceSize: 5, limits: limits) == ["failure 413"])
        let chunked = "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nghijkl\r\n0\r\n\r\n"
        #expect(parse(Array(chunked.utf8), pieceSize: 3, limits: limits) == ["failure 413"])
    }

    @Test func neverTrapsOnRandomInput() {
        var generator = SeededGenerator(seed: 42)
        let alphabet = Array("GET POST /x HTTP/1.1\r\n:Content-Length: 5 Transfer-Encoding chunked 0123456789abcdef;\r\n\n\t ".utf8)
        for round in 0..<3000 {
            let length = Int.random(in: 0...600, using: &generator)
            let bytes: [UInt8] = (0..<length).map { _ in
                round % 2 == 0 ? UInt8.random(in: 0...255, using: &generator) : alphabet.randomElement(using: &generator)!
            }
            let limits = HTTPRequestParser.Limits(maxHeaderBytes: 256, maxBodyBytes: 64)
            _ = parse(bytes, pieceSize: Int.random(in: 1...50, using: &generator), limits: limits)
        }
    }

    @Test func splitsTargetsIntoPathAndDecodedQuery() {
        let request = RecordedRequest(method: "GET", target: "/todos?page=2&q=a%20b+c&flag")
        #expect(request.path == "/todos")
        #expect(request.query == [.init(name: "page", value: "2"), .init(name: "q", value: "a b c"), .init(name: "flag", value: "")])
        #expect(RecordedRequest(method: "GET", target: "http://h:1/x?y=1").path == "/x")
    }
}

/// A deterministic random generator (SplitMix64) so fuzz failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
