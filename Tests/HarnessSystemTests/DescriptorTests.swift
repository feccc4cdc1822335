// Every kind of descriptor HarnessSystem creates is close-on-exec from the start.

#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import HarnessSystem

@Suite struct DescriptorTests {
    private func expectCloseOnExec(_ fds: [Int32], _ kind: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for fd in fds {
            #expect(try Posix.isCloseOnExec(fd), "\(kind) descriptor \(fd) is not close-on-exec", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [false, true]) func pipes(nonBlocking: Bool) throws {
        let pipe = try Posix.makePipe(nonBlocking: nonBlocking)
        defer { Posix.closeIgnoringErrors(pipe.read); Posix.closeIgnoringErrors(pipe.write) }
        try expectCloseOnExec([pipe.read, pipe.write], "pipe")
        #expect(try Posix.isNonBlocking(pipe.read) == nonBlocking)
        #expect(try Posix.isNonBlocking(pipe.write) == nonBlocking)
    }

    @Test func wakeUpPipe() throws {
        let pipe = try Posix.makeWakeUpPipe()
        defer { Posix.closeIgnoringErrors(pipe.read); Posix.closeIgnoringErrors(pipe.write) }
        try expectCloseOnExec([pipe.read, pipe.write], "wake-up pipe")
        #expect(try Posix.isNonBlocking(pipe.read))
        Posix.wake(pipe.write)
        Posix.wake(pipe.write)
        #expect(try Posix.poll([(pipe.read, .readable)], timeoutMilliseconds: 0) == [.readable])
        Posix.drain(pipe.read)
        #expect(try Posix.poll([(pipe.read, .readable)], timeoutMilliseconds: 0) == [[]])
    }

    /// A wake-up pipe whose read end is gone (closed by mistake somewhere else in the user's
    /// process) must not raise SIGPIPE, whose default action kills the whole test process.
    /// SIGPIPE is blocked on this thread around the wake, so a raised one stays pending and is
    /// seen here (and taken back) instead of ending the run.
    #if os(Linux)
    @Test func wakingAPipeWithoutReaderRaisesNoSIGPIPE() throws {
        let pipe = try Posix.makeWakeUpPipe()
        Posix.closeIgnoringErrors(pipe.read)
        defer { Posix.closeIgnoringErrors(pipe.write) }
        var pipeOnly = sigset_t(), previous = sigset_t(), pending = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        sigemptyset(&pending)
        sigpending(&pending)
        try #require(sigismember(&pending, SIGPIPE) == 0, "a SIGPIPE was pending before the wake")
        Posix.wake(pipe.write)
        sigemptyset(&pending)
        sigpending(&pending)
        let raised = sigismember(&pending, SIGPIPE) == 1
        if raised {
            var zero = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeOnly, nil, &zero)
        }
        #expect(raised == false, "waking a pipe without reader raised SIGPIPE")
    }
    #endif

    @Test func openedFile() throws {
        let fd = try Posix.openForReading("/dev/null")
        defer { Posix.closeIgnoringErrors(fd) }
        try expectCloseOnExec([fd], "file")
    }

    @Test func pseudoTerminal() throws {
        let pty = try Posix.openPseudoTerminal(cols: 100, rows: 30)
        defer { Posix.closeIgnoringErrors(pty.master); Posix.closeIgnoringErrors(pty.slave) }
        try expectCloseOnExec([pty.master, pty.slave], "pty")
        #expect(Posix.isTerminal(pty.slave))
        #expect(try Posix.windowSize(pty.slave) == (100, 30))
        try Posix.setWindowSize(pty.master, cols: 90, rows: 20)
        #expect(try Posix.windowSize(pty.slave) == (90, 20))
    }

    @Test(arguments: [false, true]) func tcpSockets(nonBlockingAccept: Bool) throws {
        let listener = try Posix.makeStreamSocket(.ipv4, nonBlocking: false)
        defer { Posix.closeIgnoringErrors(listener) }
        try Posix.setReuseAddress(listener)
        try Posix.bind(listener, .ipv4, host: "127.0.0.1", port: 0)
        try Posix.listen(listener, backlog: 4)
        let client = try Posix.makeStreamSocket(.ipv4, nonBlocking: false)
        defer { Posix.closeIgnoringErrors(client) }
        try Posix.connect(client, .ipv4, host: "127.0.0.1", port: try Posix.localPort(listener))
        let server = try #require(try Posix.accept(listener, nonBlocking: nonBlockingAccept))
        defer { Posix.closeIgnoringErrors(server) }
        try expectCloseOnExec([listener, client, server], "TCP socket")
        #expect(try Posix.isNonBlocking(server) == nonBlockingAccept)

        #expect(try Posix.send(client, bytes: Array("ping".utf8)) == 4)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(try Posix.receive(server, into: &buffer) == 4)
        #expect(Array(buffer.prefix(4)) == Array("ping".utf8))
    }

    @Test func unixSockets() throws {
        let directory = try Posix.makeTemporaryDirectory(template: "/tmp/harness-system-test.XXXXXX")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/test.sock"
        let listener = try Posix.makeUnixSocket(nonBlocking: true)
        defer { Posix.closeIgnoringErrors(listener) }
        try Posix.bind(listener, path: path)
        try Posix.listen(listener, backlog: 4)
        let client = try Posix.makeUnixSocket()
        defer { Posix.closeIgnoringErrors(client) }
        try Posix.connect(client, path: path)
        #expect(try Posix.poll([(listener, .readable)], timeoutMilliseconds: -1) == [.readable])
        let server = try #require(try Posix.accept(listener, nonBlocking: false))
        defer { Posix.closeIgnoringErrors(server) }
        try expectCloseOnExec([listener, client, server], "Unix socket")
        #expect(try Posix.send(server, bytes: [7], nonBlocking: true) == 1)
        var buffer: [UInt8] = [0]
        #expect(try Posix.receive(client, into: &buffer) == 1)
        #expect(buffer == [7])
    }

    @Test func unixSocketPathTooLongIsAnError() throws {
        let fd = try Posix.makeUnixSocket()
        defer { Posix.closeIgnoringErrors(fd) }
        let path = "/tmp/" + String(repeating: "x", count: 200)
        #expect(throws: SystemError.self) { try Posix.connect(fd, path: path) }
    }

    /// Descriptors made close-on-exec do not reach a spawned program: it sees only 0, 1 and 2
    /// (the spawn closes the rest too, so this checks the two mechanisms together).
    @Test func spawnedProgramSeesOnlyItsStandardDescriptors() throws {
        let input = try Posix.openForReading("/dev/null")
        let output = try Posix.makePipe()
        let extra = try Posix.makePipe()
        defer {
            for fd in [input, output.read, extra.read, extra.write] { Posix.closeIgnoringErrors(fd) }
        }
        let pid = try Posix.spawnWithPipes(
            path: "/bin/sh", arguments: ["sh", "-c", "ls /proc/self/fd 2>/dev/null || ls /dev/fd"],
            environment: ["PATH=/usr/bin:/bin"], workingDirectory: nil,
            standardInput: input, standardOutput: output.write, standardError: output.write)
        Posix.closeIgnoringErrors(output.write)
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while let count = try Posix.read(output.read, into: &buffer), count > 0 { text += buffer.prefix(count) }
        #expect(try Posix.waitForTermination(pid) == .exited(0))
        let listed = Set(String(decoding: text, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int32($0) })
        // `ls` itself opens one descriptor for the directory it lists.
        #expect(listed.subtracting([0, 1, 2]).count <= 1, "the program inherited \(listed.sorted())")
    }
}
