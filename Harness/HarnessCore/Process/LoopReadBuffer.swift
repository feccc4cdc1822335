import HarnessSystem

/// The one buffer the event loop's handlers read into (pty masters, pipes): 64 KiB for the
/// whole process instead of one per session. Only the loop's thread uses it, one handler at a
/// time, and every handler copies what it keeps before it returns.
enum LoopReadBuffer {
    // nonisolated(unsafe): touched only on the event loop's thread (checked below), which runs
    // one handler at a time.
    nonisolated(unsafe) private static let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    /// Runs `body` with the buffer. Only on the event loop.
    static func withBuffer<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
        EventLoop.shared.preconditionInLoop()
        return body(storage)
    }
}
