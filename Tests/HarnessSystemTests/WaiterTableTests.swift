import Dispatch
import Foundation
import Testing
@testable import HarnessSystem

/// The one waiter table behind every wait (terminal sessions, piped sessions, the bridge):
/// each waiter is resumed exactly once whatever comes first, timeouts name what was awaited,
/// and a cancellation that comes before the registration still cancels it. The races are
/// driven by hand (a clock the test moves, timeouts fired by the test), not by timing. The
/// table lives on the event loop: the test hands it each step as a job (`onLoop`).
@Suite struct WaiterTableTests {
    /// A clock the test moves by hand.
    final class TestClock: Sendable {
        private let reading = Locked<UInt64>(1_000_000_000)
        func now() -> UInt64 { reading.withLock { $0 } }
        func advance(by duration: Duration) { reading.withLock { $0 += duration.clampedNanoseconds } }
    }

    /// Records every resumption of the waits it completes.
    final class Resumptions: Sendable {
        private let results = Locked<[UInt64: [Result<String, any Error>]]>([:])
        func completion(for id: @escaping @Sendable () -> UInt64) -> WaiterTable<String, String>.Completion {
            .init { result in self.results.withLock { $0[id(), default: []].append(result) } }
        }
        func of(_ id: UInt64) -> [Result<String, any Error>] { results.withLock { $0[id] ?? [] } }
    }

    struct Ended: Error {}

    /// Runs `body` on the loop the tables live on and returns its result.
    /// How many waiters `table` holds (read on the loop).
    static func count(_ table: WaiterTable<String, String>) -> Int { onLoop { table.count } }

    @discardableResult
    static func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        EventLoop.shared.submitAndWait(body)
    }

    /// A table with a hand-moved clock and no event-loop timer, and a way to register in it.
    struct Fixture {
        let clock = TestClock()
        let table: WaiterTable<String, String>
        let resumptions = Resumptions()

        init(didRemove: (@Sendable (String) -> Void)? = nil) {
            let clock = self.clock
            table = WaiterTable(now: { clock.now() }, armsTimer: false, didRemove: didRemove)
        }

        /// Registers and inserts a waiter; returns its id.
        @discardableResult
        func insert(_ condition: String, timeout: Duration? = .seconds(10)) -> UInt64 {
            let (table, resumptions) = (table, resumptions)
            let (id, inserted) = WaiterTableTests.onLoop { () -> (UInt64, Bool) in
                let box = Locked<UInt64>(0)
                let registration = table.register(
                    description: "the \(condition)", timeout: timeout,
                    completion: resumptions.completion(for: { box.withLock { $0 } }))
                box.withLock { $0 = registration.id }
                return (registration.id, table.insert(registration, condition))
            }
            #expect(inserted)
            return id
        }
    }

    enum Event: String, CaseIterable, Sendable {
        case success, timeout, cancellation, end
    }

    static let orderings: [[Event]] = permutations(Event.allCases)

    static func permutations(_ events: [Event]) -> [[Event]] {
        guard events.count > 1 else { return [events] }
        return events.indices.flatMap { index in
            var rest = events
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    func apply(_ event: Event, to id: UInt64, in fixture: Fixture) {
        let table = fixture.table
        switch event {
        case .success: Self.onLoop { table.remove(id)?.resume(returning: "done") }
        case .timeout:
            fixture.clock.advance(by: .seconds(11))
            Self.onLoop { table.expireDueWaiters() }
        case .cancellation: Self.onLoop { table.cancel(id) }
        case .end: Self.onLoop { for waiter in table.removeAll() { waiter.resume(throwing: Ended()) } }
        }
    }

    @Test(arguments: orderings)
    func theFirstOfSuccessTimeoutCancellationAndEndWinsAndTheOthersDoNothing(_ ordering: [Event]) {
        let fixture = Fixture()
        let id = fixture.insert("reply")
        for event in ordering { apply(event, to: id, in: fixture) }
        let results = fixture.resumptions.of(id)
        #expect(results.count == 1, "resumed \(results.count) times for \(ordering)")
        switch (ordering[0], results.first) {
        case (.success, .success(let value)?): #expect(value == "done")
        case (.timeout, .failure(let error as WaitTimeout)?): #expect(error.awaited == "the reply")
        case (.cancellation, .failure(is CancellationError)?): break
        case (.end, .failure(is Ended)?): break
        default: Issue.record("\(ordering[0]) came first, but the waiter got \(String(describing: results.first))")
        }
        #expect(Self.count(fixture.table) == 0)
    }

    @Test func racingThreadsResumeEachWaiterOnce() {
        // The four ways out race on real threads; whatever the interleaving, each waiter ends
        // once (the assertion does not depend on which one wins).
        let fixture = Fixture()
        let ids = (0..<200).map { fixture.insert("reply \($0)") }
        fixture.clock.advance(by: .seconds(11))
        let table = fixture.table
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for id in ids {
                switch lane {
                case 0: Self.onLoop { table.remove(id)?.resume(returning: "done") }
                case 1: Self.onLoop { table.cancel(id) }
                case 2: Self.onLoop { table.expireDueWaiters() }
                default: Self.onLoop { for waiter in table.removeAll(where: { $0.id == id }) { waiter.resume(throwing: Ended()) } }
                }
            }
        }
        for id in ids { #expect(fixture.resumptions.of(id).count == 1) }
        #expect(Self.count(fixture.table) == 0)
    }

    @Test func aTimeoutNamesWhatWasAwaitedAndOnlyTheDueWaitersExpire() {
        let fixture = Fixture()
        let soon = fixture.insert("prompt", timeout: .seconds(1))
        let later = fixture.insert("reply", timeout: .seconds(5))
        let never = fixture.insert("exit", timeout: nil)
        fixture.clock.advance(by: .seconds(2))
        Self.onLoop { [table = fixture.table] in table.expireDueWaiters() }
        guard case .failure(let error as WaitTimeout)? = fixture.resumptions.of(soon).first else {
            Issue.record("the due waiter did not time out: \(fixture.resumptions.of(soon))")
            return
        }
        #expect(error.awaited == "the prompt")
        #expect(error.timeout == .seconds(1))
        #expect("\(error)" == "timed out after 1.0 seconds waiting for the prompt")
        #expect(fixture.resumptions.of(later).isEmpty)
        fixture.clock.advance(by: .seconds(1000))
        Self.onLoop { [table = fixture.table] in table.expireDueWaiters() }
        #expect(fixture.resumptions.of(later).count == 1)
        #expect(fixture.resumptions.of(never).isEmpty, "a wait without a timeout never times out")
        #expect(Self.count(fixture.table) == 1)
    }

    @Test func theOwnersTimeoutErrorIsUsed() {
        struct Late: Error, Equatable { let what: String }
        let fixture = Fixture()
        fixture.table.timeoutError = { Late(what: $0.description + " (" + $0.condition + ")") }
        let id = fixture.insert("reply", timeout: .zero)
        Self.onLoop { [table = fixture.table] in table.expireDueWaiters() }
        guard case .failure(let error as Late)? = fixture.resumptions.of(id).first else {
            Issue.record("got \(fixture.resumptions.of(id))")
            return
        }
        #expect(error == Late(what: "the reply (reply)"))
    }

    @Test func theDispatchTimerFiresTheEarliestDeadline() async throws {
        // The real clock and timer: a zero timeout expires at once, an hour-long one stays.
        let table = WaiterTable<String, String>()
        let (inserted, insertedContinuation) = AsyncStream<UInt64>.makeStream()
        let patient = Task {
            try await table.wait(description: "the patient one", timeout: .seconds(3600), admit: { table.insert($0, "patient") }) {
                insertedContinuation.yield($0)
            }
        }
        for await _ in inserted { break }
        await #expect(throws: WaitTimeout.self) {
            try await table.wait(description: "the hasty one", timeout: .zero) { table.insert($0, "hasty") }
        }
        #expect(Self.onLoop { table.conditions().map(\.condition) } == ["patient"])
        Self.onLoop { for waiter in table.removeAll() { waiter.resume(returning: "released") } }
        #expect(try await patient.value == "released")
        Self.onLoop { table.close() }
    }

    @Test func aCancellationBeforeTheRegistrationCancelsIt() {
        let fixture = Fixture()
        let (table, resumptions) = (fixture.table, fixture.resumptions)
        let (id, inserted) = Self.onLoop { () -> (UInt64, Bool) in
            let box = Locked<UInt64>(0)
            let registration = table.register(
                description: "the reply", timeout: .seconds(1), completion: resumptions.completion(for: { box.withLock { $0 } }))
            box.withLock { $0 = registration.id }
            table.cancel(registration.id)
            return (registration.id, table.insert(registration, "reply"))
        }
        #expect(!inserted)
        let results = fixture.resumptions.of(id)
        #expect(results.count == 1)
        if case .failure(is CancellationError)? = results.first {} else { Issue.record("got \(results)") }
        #expect(Self.count(fixture.table) == 0)
    }

    @Test func anAlreadyCancelledTaskIsNotInserted() async {
        let table = WaiterTable<String, String>(armsTimer: false)
        let afterInserting = Locked(0)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await table.wait(description: "the reply", timeout: nil, admit: { table.insert($0, "reply") }) { _ in
                afterInserting.withLock { $0 += 1 }
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(afterInserting.withLock { $0 } == 0, "nothing to send for a cancelled wait")
        #expect(Self.count(table) == 0)
    }

    @Test func anAlreadyCancelledTaskStillGetsAnOutcomeThatIsAlreadyThere() async throws {
        // Such a wait never suspends, so there is nothing to cancel.
        let table = WaiterTable<String, String>(armsTimer: false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await table.wait(description: "the reply", timeout: nil) { $0.resume(returning: "at once") }
        }
        #expect(try await task.value == "at once")
    }

    @Test func aCancellationWhileWaitingResumesTheWaiter() async {
        let table = WaiterTable<String, String>(armsTimer: false)
        let (inserted, insertedContinuation) = AsyncStream<UInt64>.makeStream()
        let task = Task {
            try await table.wait(description: "the reply", timeout: nil, admit: { table.insert($0, "reply") }) { id in
                insertedContinuation.yield(id)
            }
        }
        for await _ in inserted { break }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(Self.count(table) == 0)
    }

    @Test func anOutcomeAlreadyThereIsReturnedWithoutInserting() async throws {
        let table = WaiterTable<String, String>(armsTimer: false)
        let afterInserting = Locked(0)
        let value = try await table.wait(
            description: "the reply", timeout: .seconds(1), admit: { $0.resume(returning: "at once") },
            afterInserting: { _ in afterInserting.withLock { $0 += 1 } })
        #expect(value == "at once")
        #expect(afterInserting.withLock { $0 } == 0, "nothing to send for a wait that was never inserted")
        #expect(Self.count(table) == 0)
    }

    @Test func satisfiedWaitersAreVisitedInRegistrationOrder() {
        // Each match consumes input, as an output wait moves the stream cursor.
        let fixture = Fixture()
        let first = fixture.insert("a")
        let second = fixture.insert("b")
        let third = fixture.insert("a")
        let table = fixture.table
        let satisfied = Self.onLoop { () -> [UInt64] in
            var stream = ["a", "b"]
            let satisfied = table.removeSatisfied { waiter -> String? in
                guard stream.first == waiter.condition else { return nil }
                return stream.removeFirst()
            }
            for (waiter, outcome) in satisfied { waiter.resume(returning: outcome) }
            return satisfied.map(\.waiter.id)
        }
        #expect(satisfied == [first, second])
        #expect(Self.onLoop { table.conditions().map(\.id) } == [third])
    }

    @Test func aWaiterIsRemovedByIdOnlyWhenItIsOfTheRightKind() {
        // A bridge reply names an id; only a call waits for a reply.
        let fixture = Fixture()
        let id = fixture.insert("events")
        let table = fixture.table
        #expect(Self.onLoop { table.remove(id, where: { $0.condition == "call" }) == nil })
        #expect(Self.count(fixture.table) == 1)
        Self.onLoop { table.remove(id, where: { $0.condition == "events" })?.resume(returning: "done") }
        #expect(fixture.resumptions.of(id).count == 1)
        #expect(Self.count(fixture.table) == 0)
    }

    @Test(arguments: Event.allCases)
    func everyWayOutReleasesTheCondition(_ event: Event) {
        let removed = Locked<[String]>([])
        let fixture = Fixture(didRemove: { condition in removed.withLock { $0.append(condition) } })
        let id = fixture.insert("timer")
        apply(event, to: id, in: fixture)
        apply(event, to: id, in: fixture)
        #expect(removed.withLock { $0 } == ["timer"])
    }
}
