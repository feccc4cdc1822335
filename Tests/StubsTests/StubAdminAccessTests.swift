import Foundation
import Testing
@testable import Stubs

/// The admin API answers local programs only: a loopback `Host`, no foreign `Origin`, JSON
/// bodies. This is what stops a web page (DNS rebinding, a cross-site "simple" POST) from
/// adding stubs or reading the journal.
@Suite struct StubAdminAccessTests {
    /// Sends `head` (request line and headers, without the blank line) and `body` over a raw
    /// socket to a server with the admin API, and returns the response.
    private func send(_ head: String, body: String = "") throws -> (response: RawClient.Response, stubs: Int) {
        try StubServer.with(options: .init(enablesAdminAPI: true)) { server in
            let client = try RawClient(server)
            let length = body.isEmpty ? "" : "Content-Length: \(body.utf8.count)\r\n"
            try client.send(head + "\r\n" + length + "Connection: close\r\n\r\n" + body)
            return (try client.readResponse(), server.stubs.count)
        }
    }

    private static let mapping = #"{"request": {"path": "/added"}, "response": {"body": "added"}}"#

    @Test(arguments: [
        "Host: evil.example", "Host: evil.example:8080", "Host: 127.0.0.1.evil.example", "Host: localhost.evil.example",
        "Host: 10.0.0.1", "Host: [::2]:80", "Host: 127.0.0.1:80x", "Host: 127.0.0.1\r\nHost: evil.example", "",
    ])
    func aHostThatIsNotLoopbackIsForbidden(host: String) throws {
        let requestHead = "POST /__admin/mappings HTTP/1.1" + (host.isEmpty ? "" : "\r\n" + host) + "\r\nContent-Type: application/json"
        let (response, stubs) = try send(requestHead, body: Self.mapping)
        #expect(response.status == 403)
        #expect(response.bodyText.contains("the admin API answers only requests whose Host is 127.0.0.1, localhost or [::1]"))
        #expect(stubs == 0)
    }

    @Test(arguments: [
        "http://evil.example", "https://evil.example:443", "null", "http://127.0.0.1.evil.example", "file://", "http://10.0.0.1:8080",
    ])
    func anOriginThatIsNotLoopbackIsForbidden(origin: String) throws {
        let (response, stubs) = try send(
            "POST /__admin/mappings HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: \(origin)\r\nContent-Type: application/json", body: Self.mapping)
        #expect(response.status == 403)
        #expect(response.bodyText.contains("Origin \(origin) is not"), "\(response.bodyText)")
        #expect(stubs == 0)
        let read = try send("GET /__admin/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: \(origin)")
        #expect(read.response.status == 403, "a page cannot read the journal either")
    }

    @Test(arguments: ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonp", ""])
    func aBodyThatIsNotDeclaredJSONIsRefused(contentType: String) throws {
        let header = contentType.isEmpty ? "" : "\r\nContent-Type: \(contentType)"
        let (response, stubs) = try send("POST /__admin/mappings HTTP/1.1\r\nHost: 127.0.0.1" + header, body: Self.mapping)
        #expect(response.status == 415)
        #expect(response.bodyText.contains("the admin API takes JSON bodies only: send Content-Type: application/json"))
        #expect(stubs == 0)
    }

    @Test(arguments: [
        ("127.0.0.1", "application/json", ""), ("127.0.0.1:8080", "application/json; charset=utf-8", ""),
        ("localhost", "Application/JSON", "http://localhost:3000"), ("LOCALHOST:1", "application/json", "https://127.0.0.1"),
        ("[::1]:65535", "application/json;charset=UTF-8", "http://[::1]:8080"),
    ])
    func localProgramsMayUseIt(host: String, contentType: String, origin: String) throws {
        let originHeader = origin.isEmpty ? "" : "\r\nOrigin: \(origin)"
        let (response, stubs) = try send(
            "POST /__admin/mappings HTTP/1.1\r\nHost: \(host)\r\nContent-Type: \(contentType)" + originHeader, body: Self.mapping)
        #expect(response.status == 201, "\(response.bodyText)")
        #expect(stubs == 1)
    }

    /// Requests without a body need no Content-Type (curl -X DELETE, GET).
    @Test func requestsWithoutABodyNeedNoContentType() throws {
        #expect(try send("GET /__admin/mappings HTTP/1.1\r\nHost: localhost").response.status == 200)
        #expect(try send("POST /__admin/reset HTTP/1.1\r\nHost: localhost").response.status == 200)
    }

    /// Without the admin API, `/__admin/` paths are ordinary requests: journaled, and answered
    /// by stubs or a near-miss 404.
    @Test func withoutTheAdminAPIAdminPathsAreOrdinaryRequests() throws {
        try StubServer.with { server in
            let client = try RawClient(server)
            try client.send("POST /__admin/mappings HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            + "Content-Length: \(Self.mapping.utf8.count)\r\n\r\n" + Self.mapping)
            let response = try client.readResponse()
            #expect(response.status == 404)
            #expect(response.bodyText.hasPrefix("No stub matched this request."))
            #expect(server.stubs.isEmpty)
            #expect(server.requests.map(\.path) == ["/__admin/mappings"])
        }
    }
}
