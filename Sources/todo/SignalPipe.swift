#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns signals into bytes on a pipe the app's queue reads, so no signal is ever lost.
///
/// The handlers are installed synchronously (a dispatch signal source registers asynchronously,
/// and a signal ignored in the meantime would be dropped) and only `write` one byte: the
/// signal's number. The signals are unblocked, in case our parent spawned us with them blocked.
enum SignalPipe {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Installs handlers for `signals` and returns the pipe's read end.
    static func install(_ signals: [Int32]) -> Int32 {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return -1 }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        writeEnd = fds[1]
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in signals {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalPipe.writeEnd, &byte, 1)
            }
            #else
            action.__sigaction_u.__sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalPipe.writeEnd, &byte, 1)
            }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signalNumber, &action, nil)
            sigaddset(&unblock, signalNumber)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        return fds[0]
    }

    /// The signals waiting on the pipe, in arrival order.
    static func drain(_ readEnd: Int32) -> [Int32] {
        var buffer = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                signals += buffer.prefix(count).map { Int32($0) }
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return signals
            }
        }
    }

    /// Parks the main thread for good: the app's work runs on its queues, and the signal
    /// handlers run here, on a live thread. (`dispatchMain()` would end the main thread, and
    /// libdispatch would then wait for signals on it from inside its thread-exit destructors:
    /// a handler run there touches a stack AddressSanitizer already forgot, and it stops the
    /// app.) `pause` returns after each handler; the loop parks again.
    static func parkMainThread() -> Never {
        while true { pause() }
    }

    /// Restores the default action of `signalNumber` and raises it, unblocked, to end the process
    /// the way the signal would have.
    static func dieOf(_ signalNumber: Int32) -> Never {
        signal(signalNumber, SIG_DFL)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        raise(signalNumber)
        _exit(128 + signalNumber)
    }
}
