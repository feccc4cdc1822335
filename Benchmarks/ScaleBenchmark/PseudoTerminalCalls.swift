#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libc's pseudo-terminal calls `posix_openpt`, `grantpt`, `unlockpt` and `ptsname_r`, looked up
/// with dlsym: Swift's Glibc module leaves them out (they are declared only under
/// `_XOPEN_SOURCE`), and the benchmark's baseline must not go through the harness's own pty code.
struct PseudoTerminalCalls: Sendable {
    let openMaster: @convention(c) (Int32) -> Int32
    let grant: @convention(c) (Int32) -> Int32
    let unlock: @convention(c) (Int32) -> Int32
    let slaveName: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

    static let shared = PseudoTerminalCalls()

    private init() {
        openMaster = Self.lookUp("posix_openpt")
        grant = Self.lookUp("grantpt")
        unlock = Self.lookUp("unlockpt")
        slaveName = Self.lookUp("ptsname_r")
    }

    private static func lookUp<Function>(_ name: String) -> Function {
        let process = dlopen(nil, RTLD_NOW)
        guard let symbol = dlsym(process, name) else { fatalError("libc has no \(name)") }
        return unsafeBitCast(symbol, to: Function.self)
    }
}
