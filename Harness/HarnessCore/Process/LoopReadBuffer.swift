import HarnessSystem

/// The one buffer the event loop's handlers read into (pty masters, pipes): 64 KiB for the
/// whole process instead of one per session. Bound to the loop: one handler at a time uses it,
/// and every handler copies what it keeps before it returns.
enum LoopReadBuffer {
    private static let storage = LoopBound(
        UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16), on: .shared)

    /// Runs `body` with the buffer. Only on the event loop.
    static func withBuffer<Result>(_ body: (UnsafeMutableRawBufferPointer) -> Result) -> Result {
        body(storage.value)
    }
}
