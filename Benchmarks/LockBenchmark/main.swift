// The package's one lock (`Locked`, a pthread mutex ThreadSanitizer can see) against
// `Synchronization.Mutex` (futex based, invisible to TSan on Linux) and Foundation's `NSLock`,
// measured in the same run: nanoseconds per lock-increment-unlock, uncontended (one thread)
// and contended (2 and 4 threads on the same lock).
//
//   swift build -c release --product LockBenchmark && .build/release/LockBenchmark [iterations]

import Foundation
import HarnessSystem
import Synchronization

let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2_000_000

/// A lock kind under test: `increment` runs `count` lock-add-unlock rounds.
struct Contender: Sendable {
    let name: String
    let increment: @Sendable (Int) -> Void
    let total: @Sendable () -> Int
}

final class NSLockCounter: @unchecked Sendable {
    // @unchecked: `value` only under `lock` (a baseline of the benchmark, not package code).
    private let lock = NSLock()
    private var value = 0
    func add(_ count: Int) { for _ in 0..<count { lock.lock(); value &+= 1; lock.unlock() } }
    var total: Int { lock.withLock { value } }
}

func contenders() -> [Contender] {
    let locked = Locked(0)
    let mutex = Mutex(0)
    let nsLock = NSLockCounter()
    return [
        Contender(name: "Locked (pthread)", increment: { count in
            for _ in 0..<count { locked.withLock { $0 &+= 1 } }
        }, total: { locked.withLock { $0 } }),
        Contender(name: "Mutex", increment: { count in
            for _ in 0..<count { mutex.withLock { $0 &+= 1 } }
        }, total: { mutex.withLock { $0 } }),
        Contender(name: "NSLock", increment: { nsLock.add($0) }, total: { nsLock.total }),
    ]
}

/// Nanoseconds per round with `threads` threads sharing the contender's lock; the median of 5.
func measure(_ contender: Contender, threads: Int) -> Double {
    var samples: [Double] = []
    for _ in 0..<5 {
        let perThread = iterations / threads
        let before = contender.total()
        let start = MonotonicClock.nanoseconds()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in contender.increment(perThread) }
        let elapsed = MonotonicClock.nanoseconds() - start
        precondition(contender.total() - before == perThread * threads, "\(contender.name) lost increments")
        samples.append(Double(elapsed) / Double(perThread * threads))
    }
    return samples.sorted()[samples.count / 2]
}

let all = contenders()
let threadCounts = [1, 2, 4]
print("ns per lock-increment-unlock (median of 5 runs of \(iterations) rounds; lower is better)")
print("lock".padding(toLength: 20, withPad: " ", startingAt: 0) + threadCounts.map { "\($0) thread\($0 == 1 ? " " : "s")".leftPadded(14) }.joined())
var figures: [String: [Double]] = [:]
for contender in all {
    let row = threadCounts.map { measure(contender, threads: $0) }
    figures[contender.name] = row
    print(contender.name.padding(toLength: 20, withPad: " ", startingAt: 0) + row.map { String(format: "%.1f", $0).leftPadded(14) }.joined())
}
let ours = figures["Locked (pthread)"]!
for peer in ["Mutex", "NSLock"] {
    let ratios = zip(ours, figures[peer]!).map { String(format: "%.2fx", $0 / $1).leftPadded(14) }.joined()
    print(("Locked / " + peer).padding(toLength: 20, withPad: " ", startingAt: 0) + ratios)
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
