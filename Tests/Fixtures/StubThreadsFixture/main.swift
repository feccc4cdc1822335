// stub-threads-fixture [COUNT]: the process StubServerThreadCountTests measures.
//
// Starts one StubServer and has it answer (a plain response, one delayed by a timer, one hanging
// connection left open), reads the thread count of this process (`Threads:` of
// /proc/self/status), then starts COUNT - 1 more servers doing the same and reads it again,
// with every server and its hanging connection still live; then stops them all and reads it a
// third time. Prints the three counts as one JSON object:
// `{"servers":20,"threadsWithOne":3,"threadsWithAll":3,"threadsAfterStop":3}`.
//
// Nothing else runs in this process (the client is a blocking socket on the main thread), so
// the counts are exact; in the test process, other tests start and end threads all the time.

import Foundation
import HarnessSystem
import Stubs

struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

/// `Threads:` of /proc/self/status.
func threadCount() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
        if let count = Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) { return count }
    }
    throw FixtureError(description: "no Threads: line in /proc/self/status")
}

/// A blocking connection to `server` (on 127.0.0.1, the default host) that has sent `request`.
func connect(_ server: StubServer, sending request: String) throws -> Int32 {
    let fd = try Posix.makeStreamSocket(.ipv4, nonBlocking: false)
    do {
        try Posix.connect(fd, .ipv4, host: "127.0.0.1", port: server.port)
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count { sent += try Posix.send(fd, bytes: bytes, from: sent) ?? 0 }
        return fd
    } catch {
        Posix.closeIgnoringErrors(fd)
        throw error
    }
}

/// GETs `path` with `Connection: close` and returns the response's body (read to the end).
func get(_ server: StubServer, _ path: String) throws -> String {
    let fd = try connect(server, sending: "GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    defer { Posix.closeIgnoringErrors(fd) }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while let count = try Posix.read(fd, into: &buffer), count > 0 { response += buffer[0..<count] }
    let text = String(decoding: response, as: UTF8.self)
    guard text.hasPrefix("HTTP/1.1 200"), let end = text.range(of: "\r\n\r\n") else {
        throw FixtureError(description: "GET \(path) on port \(server.port) answered: \(text)")
    }
    return String(text[end.upperBound...])
}

/// A started server that answered a plain and a delayed request, and journaled a request that
/// hangs (its client descriptor is returned, for the caller to close).
@MainActor func startServer() async throws -> (server: StubServer, hangingClient: Int32) {
    let server = try StubServer()
    server.stub(.get("/plain"), .text("plain"))
    server.stub(.get("/delayed"), StubResponse.text("delayed").delayed(by: .milliseconds(5)))
    server.stub(.get("/hang"), .hang)
    guard try get(server, "/plain") == "plain", try get(server, "/delayed") == "delayed" else {
        throw FixtureError(description: "wrong bodies from port \(server.port)")
    }
    let hanging = try connect(server, sending: "GET /hang HTTP/1.1\r\nHost: x\r\n\r\n")
    do {
        _ = try await server.waitForRequest(matching: .get("/hang"), timeout: .seconds(120))
    } catch {
        Posix.closeIgnoringErrors(hanging)
        throw error
    }
    return (server, hanging)
}

do {
    let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 0 : 20
    guard count >= 1 else { throw FixtureError(description: "usage: stub-threads-fixture [COUNT >= 1]") }
    var started = [try await startServer()]
    let threadsWithOne = try threadCount()
    for _ in 1..<count { started.append(try await startServer()) }
    let threadsWithAll = try threadCount()
    for (server, hanging) in started {
        server.stop()
        Posix.closeIgnoringErrors(hanging)
    }
    let threadsAfterStop = try threadCount()
    print(#"{"servers":\#(count),"threadsWithOne":\#(threadsWithOne),"threadsWithAll":\#(threadsWithAll),"threadsAfterStop":\#(threadsAfterStop)}"#)
} catch {
    FileHandle.standardError.write(Data("stub-threads-fixture: \(error)\n".utf8))
    exit(1)
}
