// What the fuzz targets share: libFuzzer's driver, a deterministic generator that cuts an input
// into chunks, and a check that stops the run (libFuzzer reports it as a crash with its input).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer's entry point for programs that have their own `main` (SwiftPM links one into
/// every executable, so libFuzzer's `main` is not used).
@_extern(c, "LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the program's arguments and `callback` as `LLVMFuzzerTestOneInput`.
public func runFuzzer(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}

/// The input as a buffer (libFuzzer may pass a null pointer for an empty input).
public func inputBuffer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
    guard let data, size > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: data, count: size)
}

/// splitmix64: the same numbers for the same seed, so the same input always takes the same path.
public struct FuzzGenerator {
    var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    public mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// A chunk length: mostly 1...64 bytes, one time in eight up to 512.
    public mutating func chunkLength() -> Int {
        next(8) == 0 ? 1 + next(512) : 1 + next(64)
    }
}

/// Stops the run when `condition` is false: libFuzzer saves the input as a crash.
public func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { fatalError("invariant broken: \(message())", file: file, line: line) }
}
