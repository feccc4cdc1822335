import Foundation
import Testing
import TestSupport
@testable import TodoCore

/// The app's own HTTP client reads answers byte by byte as they arrive: every framing, split
/// at every point, gives the same response, and broken answers give the app's words for them.
@Suite struct ResponseParserTests {
    /// Feeds `answer` in pieces of `piece` bytes, then the end of the connection.
    private static func parse(_ answer: String, piece: Int) throws(TodoAPIError) -> PlainHTTPClient.Response? {
        var parser = ResponseParser()
        let bytes = Array(answer.utf8)
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + piece)
            try parser.append(bytes[index..<end])
            index = end
            if let response = try parser.complete(atEnd: false) { return response }
        }
        return try parser.complete(atEnd: true)
    }

    static let framings: [(name: String, answer: String)] = [
        ("length", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n[1,2,3]"),
        ("chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n[1,\r\n4;ext=1\r\n2,3]\r\n0\r\nTrailer: x\r\n\r\n"),
        ("until close", "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n[1,2,3]"),
        ("after 100 Continue", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 7\r\n\r\n[1,2,3]"),
    ]

    @Test(arguments: framings.map(\.name), [1, 2, 7, 4096])
    func everyFramingSplitAnywhereGivesTheBody(name: String, piece: Int) throws {
        let answer = try #require(Self.framings.first { $0.name == name }).answer
        let response = try #require(try Self.parse(answer, piece: piece))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "[1,2,3]")
    }

    @Test func aLengthDelimitedAnswerIsCompleteWithoutWaitingForTheClose() throws {
        var parser = ResponseParser()
        try parser.append(ArraySlice("HTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\nnope".utf8))
        let response = try #require(try parser.complete(atEnd: false))
        #expect(response.status == 404)
        #expect(response.body == Array("nope".utf8))

        var extra = ResponseParser()
        try extra.append(ArraySlice("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n[1]garbage".utf8))
        #expect(try extra.complete(atEnd: false)?.body == Array("[1]".utf8), "bytes after the length are not the body")
    }

    @Test func aChunkedAnswerWithoutItsLastChunkIsNotComplete() throws {
        var parser = ResponseParser()
        try parser.append(ArraySlice("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n".utf8))
        #expect(try parser.complete(atEnd: false) == nil)
        #expect(throws: TodoAPIError.transport("the connection was closed before an answer")) {
            _ = try parser.complete(atEnd: true)
        }
    }

    @Test(arguments: [
        ("SSH-2.0-OpenSSH\r\n", "the server sent something that is not HTTP"),
        ("XY", "the server sent something that is not HTTP"),
        ("HTT", "the connection was closed before an answer"),
        ("HTTP/1.1 2000 OK\r\n\r\n", "the server sent something that is not HTTP"),
        ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "the server sent something that is not HTTP"),
        ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "the server sent something that is not HTTP"),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "the server sent something that is not HTTP"),
        ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "the connection was closed before an answer"),
        ("HTTP/1.1 200 OK\r\nContent-", "the connection was closed before an answer"),
    ])
    func brokenAnswersSayWhatIsWrong(answer: String, reason: String) {
        #expect(throws: TodoAPIError.transport(reason)) {
            let response = try Self.parse(answer, piece: 3)
            if response == nil { throw TodoAPIError.transport("the connection was closed before an answer") }
        }
    }

    @Test func anEmptyAnswerIsNotAResponse() throws {
        var parser = ResponseParser()
        #expect(try parser.complete(atEnd: true) == nil)
    }

    @Test func plainHTTPIsChosenOnlyForHTTPWhereURLSessionSpins() {
        let http = TodoAPI(baseURL: URL(string: "http://127.0.0.1:1")!)
        let https = TodoAPI(baseURL: URL(string: "https://example.com")!)
        #if canImport(FoundationNetworking)
        #expect(http.usesPlainHTTP)
        #else
        #expect(!http.usesPlainHTTP)
        #endif
        #expect(!https.usesPlainHTTP)
        #expect(!TodoAPI(baseURL: URL(string: "http://127.0.0.1:1")!, transport: .urlSession).usesPlainHTTP)
        #expect(TodoAPI(baseURL: URL(string: "http://127.0.0.1:1")!, transport: .plainHTTP).usesPlainHTTP)
    }

    @Test func aRefusedConnectionSaysSo() async throws {
        let refusing = try RefusingPort()
        let api = TodoAPI(baseURL: refusing.url, timeout: 86400, transport: .plainHTTP)
        await #expect(throws: TodoAPIError.transport("could not connect to the server")) { _ = try await api.fetchTodos() }
        withExtendedLifetime(refusing) {}
    }

    @Test func anHTTPSAddressIsRefusedByThePlainClient() async {
        let api = TodoAPI(baseURL: URL(string: "https://127.0.0.1:1")!, transport: .plainHTTP)
        await #expect(throws: TodoAPIError.self) { _ = try await api.fetchTodos() }
    }
}
