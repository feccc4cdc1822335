import Dispatch
import Foundation
import Testing
@testable import HarnessSystem

/// The one waiter table behind every wait (terminal sessions, piped sessions, the bridge):
/// each waiter is resumed exactly once whatever comes first, timeouts name what was awaited,
/// and a cancellation that comes before the registration still cancels it. The races are
/// driven by hand (a clock the test moves, timeouts fired by the test), not by timing.
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
            let box = Locked<UInt64>(0)
            let registration = table.register(
                description: "the \(condition)", timeout: timeout,
                completion: resumptions.completion(for: { box.withLock { $0 } }))
            box.withLock { $0 = registration.id }
            #expect(table.insert(registration, condition))
            return registration.id
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
        switch event {
        case .success: fixture.table.remove(id)?.resume(returning: "done")
        case .timeout:
            fixture.clock.advance(by: .seconds(11))
            fixture.table.expireDueWaiters()
        case .cancellation: fixture.table.cancel(id)
        case .end: for waiter in fixture.table.removeAll() { waiter.resume(throwing: Ended()) }
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
        #expect(fixture.table.count == 0)
    }

    @Test func racingThreadsResumeEachWaiterOnce() {
        // The four ways out race on real threads; whatever the interleaving, each waiter ends
        // once (the assertion does not depend on which one wins).
        let fixture = Fixture()
        let ids = (0..<200).map { fixture.insert("reply \($0)") }
        fixture.clock.advance(by: .seconds(11))
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for id in ids {
                switch lane {
                case 0: fixture.table.remove(id)?.resume(returning: "done")
                case 1: fixture.table.cancel(id)
                case 2: fixture.table.expireDueWaiters()
                default: for waiter in fixture.table.removeAll(where: { $0.id == id }) { waiter.resume(throwing: Ended()) }
                }
            }
        }
        for id in ids { #expect(fixture.resumptions.of(id).count == 1) }
        #expect(fixture.table.count == 0)
    }

    @Test func aTimeoutNamesWhatWasAwaitedAndOnlyTheDueWaitersExpire() {
        let fixture = Fixture()
        let soon = fixture.insert("prompt", timeout: .seconds(1))
        let later = fixture.insert("reply", timeout: .seconds(5))
        let never = fixture.insert("exit", timeout: nil)
        fixture.clock.advance(by: .seconds(2))
        fixture.table.expireDueWaiters()
        guard case .failure(let error as WaitTimeout)? = fixture.resumptions.of(soon).first else {
            Issue.record("the due waiter did not time out: \(fixture.resumptions.of(soon))")
            return
        }
        #expect(error.awaited == "the prompt")
        #expect(error.timeout == .seconds(1))
        #expect("\(error)" == "timed out after 1.0 seconds waiting for the prompt")
        #expect(fixture.resumptions.of(later).isEmpty)
        fixture.clock.advance(by: .seconds(1000))
        fixture.table.expireDueWaiters()
        #expect(fixture.resumptions.of(later).count == 1)
        #expect(fixture.resumptions.of(never).isEmpty, "a wait without a timeout never times out")
        #expect(fixture.table.count == 1)
    }

    @Test func theOwnersTimeoutErrorIsUsed() {
        struct Late: Error, Equatable { let what: String }
        let fixture = Fixture()
        fixture.table.timeoutError = { Late(what: $0.description + " (" + $0.condition + ")") }
        let id = fixture.insert("reply", timeout: .zero)
        fixture.table.expireDueWaiters()
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
        #expect(table.conditions().map(\.condition) == ["patient"])
        for waiter in table.removeAll() { waiter.resume(returning: "released") }
        #expect(try await patient.value == "released")
        table.close()
    }

    @Test func aCancellationBeforeTheRegistrationCancelsIt() {
        let fixture = Fixture()
        let box = Locked<UInt64>(0)
        let registration = fixture.table.register(
            description: "the reply", timeout: .seconds(1),
            completion: fixture.resumptions.completion(for: { box.withLock { $0 } }))
        box.withLock { $0 = registration.id }
        fixture.table.cancel(registration.id)
        #expect(!fixture.table.insert(registration, "reply"))
        let results = fixture.resumptions.of(registration.id)
        #expect(results.count == 1)
        if case .failure(is CancellationError)? = results.first {} else { Issue.record("got \(results)") }
        #expect(fixture.table.count == 0)
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
        #expect(table.count == 0)
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
        #expect(table.count == 0)
    }

    @Test func anOutcomeAlreadyThereIsReturnedWithoutInserting() async throws {
        let table = WaiterTable<String, String>(armsTimer: false)
        let afterInserting = Locked(0)
        let value = try await table.wait(
            description: "the reply", timeout: .seconds(1), admit: { $0.resume(returning: "at once") },
            afterInserting: { _ in afterInserting.withLock { $0 += 1 } })
        #expect(value == "at once")
        #expect(afterInserting.withLock { $0 } == 0, "nothing to send for a wait that was never inserted")
        #expect(table.count == 0)
    }

    @Test func satisfiedWaitersAreVisitedInRegistrationOrder() {
        // Each match consumes input, as an output wait moves the stream cursor.
        let fixture = Fixture()
        let first = fixture.insert("a")
        let second = fixture.insert("b")
        let third = fixture.insert("a")
        var stream = ["a", "b"]
        let satisfied = fixture.table.removeSatisfied { waiter -> String? in
            guard stream.first == waiter.condition else { return nil }
            return stream.removeFirst()
        }
        #expect(satisfied.map(\.waiter.id) == [first, second])
        for (waiter, outcome) in satisfied { waiter.resume(returning: outcome) }
        #expect(fixture.table.conditions().map(\.id) == [third])
    }

    @Test func aWaiterIsRemovedByIdOnlyWhenItIsOfTheRightKind() {
        // A bridge reply names an id; only a call waits for a reply.
        let fixture = Fixture()
        let id = fixture.insert("events")
        #expect(fixture.table.remove(id, where: { $0.condition == "call" }) == nil)
        #expect(fixture.table.count == 1)
        fixture.table.remove(id, where: { $0.condition == "events" })?.resume(returning: "done")
        #expect(fixture.resumptions.of(id).count == 1)
        #expect(fixture.table.count == 0)
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
