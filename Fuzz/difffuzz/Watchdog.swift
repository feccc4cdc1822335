import Foundation

/// Ends the run with a clear message when one stream takes over a minute: libvterm 0.1.4 has
/// inputs it never finishes (see `libvterm-rep-hang`), and a hang must fail CI, not stall it.
final class Watchdog: @unchecked Sendable {
    private let condition = NSCondition()
    private var activity = ""
    private var stream: [UInt8] = []
    private var since = Date()
    private let limit: TimeInterval

    init(limit: TimeInterval = 60) {
        self.limit = limit
        let thread = Thread { [unowned self] in self.watch() }
        thread.start()
    }

    /// What the run is doing now (and on which bytes).
    func working(on activity: String, _ stream: [UInt8]) {
        condition.lock()
        self.activity = activity
        self.stream = stream
        since = Date()
        condition.unlock()
    }

    /// Waits until the current activity's deadline; a later activity moves the deadline on.
    private func watch() {
        condition.lock()
        while true {
            let deadline = since.addingTimeInterval(limit)
            if Date() < deadline {
                _ = condition.wait(until: deadline)
                continue
            }
            let activity = self.activity, stream = self.stream
            condition.unlock()
            let escaped = Escaping.escape(stream)
            print("== difffuzz: \(activity) did not finish within \(Int(limit)) s (an emulator that never returns)")
            print("   stream (\(stream.count) bytes): \"\(escaped.prefix(4000))\(escaped.count > 4000 ? "..." : "")\"")
            fflush(stdout)
            _exit(3)
        }
    }
}
