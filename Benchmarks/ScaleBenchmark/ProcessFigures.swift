#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

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

    /// Counts `/proc/self/fd`, leaving out the directory stream's own descriptor.
    private static func openDescriptors() throws(ScaleBenchmarkError) -> Int {
        guard let directory = opendir("/proc/self/fd") else { throw .system("opendir /proc/self/fd", errno: errno) }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != "..", Int32(name) != own else { continue }
            count += 1
        }
        return count
    }
}
