#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HarnessSystem

/// This process's threads, open descriptors and resident memory, read from `/proc/self`.
struct ProcessFigures: Sendable {
    /// `Threads:` of `/proc/self/status`.
    let threads: Int
    /// Entries of `/proc/self/fd`, without the one that lists them.
    let descriptors: Int
    /// `VmRSS:` of `/proc/self/status`, in KiB.
    let residentKiB: Int

    var residentMiB: Double { Double(residentKiB) / 1024 }

    /// Reads the figures now.
    static func current() throws(ScaleBenchmarkError) -> ProcessFigures {
        let status: String
        do { status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8) } catch {
            throw .unexpected("cannot read /proc/self/status (the benchmark needs Linux's /proc): \(error)")
        }
        func field(_ name: String) throws(ScaleBenchmarkError) -> Int {
            for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
                // "VmRSS:\t   19556 kB", "Threads:\t3"
                let number = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
                    .flatMap { Int($0) }
                guard let number else { throw .unexpected("unreadable \(name) line in /proc/self/status: \(line)") }
                return number
            }
            throw .unexpected("no \(name) line in /proc/self/status")
        }
        return ProcessFigures(threads: try field("Threads"), descriptors: try openDescriptors(), residentKiB: try field("VmRSS"))
    }

    /// Counts `/proc/self/fd` through HarnessSystem's listing, which reads each entry's name in
    /// place (copying `dirent.d_name` reads past `readdir`'s buffer once the table is long).
    private static func openDescriptors() throws(ScaleBenchmarkError) -> Int {
        guard let count = Posix.openDescriptorCount() else {
            throw .unexpected("cannot list /proc/self/fd (the benchmark needs Linux's /proc)")
        }
        return count
    }
}
