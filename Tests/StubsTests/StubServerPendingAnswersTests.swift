import Foundation
import Testing
@testable import Stubs
import HarnessSystem

/// What a flow's snapshot asks before it calls a screen settled: the requests not answered in
/// full, counted after the server read what its clients sent. A request in the kernel's buffers
/// that the loop has not read yet counts, whole (its answer delayed) or half sent.
@Suite struct StubServerPendingAnswersTests {
    @Test(arguments: [
        "GET /slow HTTP/1.1\r\nHost: stub\r\n\r\n",
        "GET /slow HTTP/1.1\r\nHo",
    ])
    func aRequestTheLoopHasNotReadYetCounts(request: String) async throws {
        let server = try StubServer()
        defer { server.stop() }
        server.stub(.get("/slow"), StubResponse.text("slow").delayed(by: .seconds(3600)))
        // One job on the loop: the client connects and sends (the kernel takes both without the
        // server), and the server cannot read it before the count, which runs in the same job.
        let counts = await EventLoop.shared.submit { () -> (unread: Int, afterReading: Int)? in
            guard let client = try? RawClient(server), (try? client.send(request)) != nil else { return nil }
            defer { client.close() }
            return (server.driver.pendingAnswers.value, server.driver.countPendingAfterReading())
        }
        let (unread, afterReading) = try #require(counts, "could not connect and send")
        #expect(unread == 0, "the loop had not read the request: nothing was counted yet")
        #expect(afterReading == 1)
    }
}
