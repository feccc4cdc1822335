import Foundation
import Testing
@testable import Stubs

/// The in-process server driven by curl, a second independent client.
@Suite struct StubServerCurlTests {
    @Test func chunkedRequestBodyIsDechunked() async throws {
        try await StubServer.with { server in
            server.stub(.post("/upload").withBody(.exact("streamed body")), .text("got it"))
            let output = try await curl(["-H", "Transfer-Encoding: chunked", "--data-binary", "@-", server.url("/upload").absoluteString],
                                  stdin: Data("streamed body".utf8))
            #expect(output.stdout == "got it", "stderr: \(output.stderr)")
            #expect(server.requests.first?.headers["Transfer-Encoding"] == "chunked")
        }
    }

    @Test func expectContinueUploadSucceeds() async throws {
        try await StubServer.with { server in
            server.stub(.put("/big"), .text("stored"))
            let body = Data(repeating: UInt8(ascii: "x"), count: 200_000)
            let output = try await curl(["-X", "PUT", "-H", "Expect: 100-continue", "--data-binary", "@-", "-w", "\n%{http_code}",
                                   server.url("/big").absoluteString], stdin: body)
            #expect(output.stdout == "stored\n200", "stderr: \(output.stderr)")
            #expect(server.requests.first?.body.count == 200_000)
            #expect(server.requests.first?.headers["Expect"] == "100-continue")
        }
    }

    @Test func bodyOverTheLimitIs413() async throws {
        try await StubServer.with(options: .init(maxBodyBytes: 1024)) { server in
            server.stub(.any, .text("ok"))
            let output = try await curl(["-X", "POST", "-H", "Expect:", "--data-binary", "@-", "-o", "/dev/null", "-w", "%{http_code}",
                                   server.url("/x").absoluteString], stdin: Data(count: 4096))
            #expect(output.stdout == "413")
        }
    }

    @Test func headWithCurl() async throws {
        try await StubServer.with { server in
            server.stub(.get("/todos"), .json(text: "[1,2,3]"))
            let output = try await curl(["-I", server.url("/todos").absoluteString])
            #expect(output.stdout.hasPrefix("HTTP/1.1 200 OK"))
            #expect(output.stdout.contains("Content-Length: 7"))
            #expect(server.requests.first?.method == "HEAD")
        }
    }

    @Test func curlReusesTheKeepAliveConnection() async throws {
        try await StubServer.with { server in
            server.stub(.get(.prefix("/k")), .text("k"))
            let url = server.url("/k").absoluteString
            let output = try await curl(["-w", " %{num_connects}", url, url, url])
            // Only the first transfer opens a connection.
            #expect(output.stdout == "k 1k 0k 0", "stdout: \(output.stdout)")
        }
    }

    @Test func slowChunkedResponseArrivesWhole() async throws {
        try await StubServer.with { server in
            server.stub(.get("/slow"), StubResponse.text("abcdefghij").chunked(chunkSize: 3).throttled(bytes: 7, every: .milliseconds(1)))
            let output = try await curl([server.url("/slow").absoluteString])
            #expect(output.stdout == "abcdefghij")
        }
    }
}
