// Loop-bound state: reachable on its loop's thread, reported (by default the process stops)
// on any other. The loop under test reports through a recorder instead of stopping.

import Testing
@testable import HarnessSystem

@Suite(.serialized) struct LoopBoundTests {
    /// What the loop under test reported.
    static let reports = Locked<[String]>([])
    static let loop = EventLoop(name: "loop-bound-tests") { report in reports.withLock { $0.append(report) } }

    /// Runs `body` and returns what the loop reported meanwhile.
    static func reported(during body: () async -> Void) async -> [String] {
        let before = reports.withLock { $0.count }
        await body()
        return reports.withLock { Array($0[before...]) }
    }

    enum Access: String, CaseIterable, Sendable {
        case read, write, withValue
    }

    static func touch(_ bound: LoopBound<[Int]>, _ access: Access) {
        switch access {
        case .read: _ = bound.value.count
        case .write: bound.value.append(1)
        case .withValue: bound.withValue { $0.append(2) }
        }
    }

    @Test(arguments: Access.allCases)
    func anAccessOffTheLoopIsReported(_ access: Access) async {
        let bound = LoopBound([Int](), on: Self.loop)
        let reports = await Self.reported { Self.touch(bound, access) }
        #expect(reports.count == 1, "\(reports)")
        #expect(reports.first?.contains("loop-bound-tests") == true, "\(reports)")
        #expect(reports.first?.contains("touched off its thread") == true, "\(reports)")
    }

    @Test(arguments: Access.allCases)
    func anAccessOnTheLoopIsNot(_ access: Access) async {
        let bound = LoopBound([Int](), on: Self.loop)
        let reports = await Self.reported {
            await Self.loop.submit { Self.touch(bound, access) }
        }
        #expect(reports.isEmpty, "\(reports)")
    }

    @Test func theValueLivesOnTheLoopAcrossJobs() async {
        let bound = LoopBound([Int](), on: Self.loop)
        let values = await Self.reported {
            for index in 0..<10 { Self.loop.execute { bound.value.append(index) } }
            let kept = await Self.loop.submit { bound.value }
            #expect(kept == Array(0..<10))
        }
        #expect(values.isEmpty, "\(values)")
    }

    @Test func aWaiterTableLivesOnItsLoop() async {
        let table = WaiterTable<String, String>(loop: Self.loop, armsTimer: false)
        let offLoop = await Self.reported { _ = table.count }
        #expect(offLoop.count == 1, "\(offLoop)")
        let onLoop = await Self.reported { _ = await Self.loop.submit { table.count } }
        #expect(onLoop.isEmpty, "\(onLoop)")
    }

    @Test func anotherLoopsThreadIsOffTheLoop() async {
        let bound = LoopBound([Int](), on: Self.loop)
        let reports = await Self.reported {
            await EventLoop.shared.submit { Self.touch(bound, .read) }
        }
        #expect(reports.count == 1, "\(reports)")
        #expect(await EventLoop.shared.submit { EventLoop.shared.inLoop })
        #expect(!EventLoop.shared.inLoop)
    }
}
