import Foundation
import HarnessSystem
import HarnessWire

/// `thread-scaling N` as the first app argument: opens framed connection pairs over Unix
/// sockets in this process (a listener accepting each, a `FrameConnection` on both ends, a
/// frame each way on each), first one pair, then N in all, and prints the process's thread
/// count (`/proc/self/status`) at each step, and its descriptor count before and after closing
/// them all, as JSON; then exits. `BridgeThreadScalingTests` compares the figures.
///
/// A process of its own, because the test process runs every other suite in parallel and
/// their threads come and go: here nothing but the transport starts threads.
enum ThreadScalingReport {
    /// What every connection of the report reports, from the event loop's thread.
    final class Counters: Sendable {
        let received = Locked(0)
        let closed = Locked(0)
    }

    static let patience = Duration.seconds(120)

    static func run(pairs: Int) -> Never {
        guard pairs >= 1 else { fail("thread-scaling wants a count of at least 1") }
        let directory: String
        do { directory = try Posix.makeTemporaryDirectory(template: "/tmp/harness-threads.XXXXXX") } catch {
            fail("cannot make a directory: \(error)")
        }
        defer { _ = try? FileManager.default.removeItem(atPath: directory) }
        let counters = Counters()
        // The event loop's own descriptors (its poller, its wake-up pipe) belong to the process,
        // not to a connection: started before the count.
        EventLoop.shared.submitAndWait {}
        let fdsBefore = Posix.openDescriptors().count
        var connections: [FrameConnection] = []
        connections += openPairs(0..<1, in: directory, counters: counters)
        waitFor(counters.received, reaching: 2, "the frames of the first pair")
        let one = threadCount()
        connections += openPairs(1..<pairs, in: directory, counters: counters)
        waitFor(counters.received, reaching: 2 * pairs, "the frames of \(pairs) pairs")
        let many = threadCount()
        for connection in connections { connection.close(reason: "the report is done") }
        waitFor(counters.closed, reaching: 2 * pairs, "every connection's close")
        let report = [
            "pairs": pairs, "one": one, "many": many, "afterClose": threadCount(),
            "fdsBefore": fdsBefore, "fdsAfterClose": Posix.openDescriptors().count,
        ]
        let data = try! JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
        FileHandle.standardOutput.write(data)
        exit(0)
    }

    /// Opens the pairs `range` (each on its own listener) and sends a frame each way on each.
    static func openPairs(_ range: Range<Int>, in directory: String, counters: Counters) -> [FrameConnection] {
        var opened: [FrameConnection] = []
        for index in range {
            let path = directory + "/\(index).sock"
            let accepted = Locked<Result<Int32, SystemError>?>(nil)
            do {
                let listener = try UnixListener(path: path)
                listener.acceptOne { result in accepted.withLockNotifying { $0 = result } }
                let clientFD = try UnixSocket.connect(path: path)
                guard accepted.wait(until: { $0 != nil }, deadline: MonotonicClock.deadline(after: patience)) else {
                    fail("pair \(index): no connection accepted within \(patience)")
                }
                let serverFD = try accepted.withLock { $0! }.get()
                for fd in [serverFD, clientFD] {
                    let connection = FrameConnection(
                        fd: fd,
                        onMessage: { _ in counters.received.withLockNotifying { $0 += 1 } },
                        onClose: { _ in counters.closed.withLockNotifying { $0 += 1 } })
                    connection.start()
                    connection.send(try BridgeFrame.encode(.ready))
                    opened.append(connection)
                }
            } catch {
                fail("pair \(index): \(error)")
            }
        }
        return opened
    }

    static func waitFor(_ counter: Locked<Int>, reaching target: Int, _ what: String) {
        guard counter.wait(until: { $0 >= target }, deadline: MonotonicClock.deadline(after: patience)) else {
            fail("timed out after \(patience) waiting for \(what): \(counter.withLock { $0 }) of \(target)")
        }
    }

    /// The `Threads:` line of `/proc/self/status`.
    static func threadCount() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }),
            let count = Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
        else { fail("cannot read Threads: from /proc/self/status") }
        return count
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("thread-scaling: \(message)\n".utf8))
        exit(2)
    }
}
