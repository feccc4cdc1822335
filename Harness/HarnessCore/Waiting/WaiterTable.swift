import Dispatch
import Foundation
import HarnessSystem

/// The pending waits of one owner (a terminal session, a piped session, a bridge): each is a
/// condition and a continuation, resumed exactly once, by whichever comes first of its
/// success, its timeout, the task's cancellation or the owner's end.
///
/// The table owns what every owner used to write again: the ids, registration with a deadline,
/// cancellation (also before registration), the one Dispatch timer armed for the earliest
/// deadline, and removal, which is what makes each resumption happen once: a waiter is resumed
/// only by whoever removed it from the table, and it can be removed only once.
///
/// The owner decides what satisfies a condition and what ends it. It may call the table while
/// holding its own lock (the table's lock is taken inside it, never around a call out of the
/// table), and it resumes the waiters it removed after unlocking. The table resumes the
/// waiters it removes itself (timeouts, cancellations) without holding any lock.
///
/// ```swift
/// let reply = try await table.wait(description: "the reply", timeout: .seconds(5)) { registration in
///     lock.withLock {
///         if let reply { registration.resume(returning: reply) } else { table.insert(registration, .reply) }
///     }
/// }
/// ```
final class WaiterTable<Condition, Value: Sendable>: @unchecked Sendable {
    /// Resumes a suspended wait; wraps its continuation (or, in tests, a closure).
    struct Completion: Sendable {
        private let body: @Sendable (Result<Value, any Error>) -> Void

        init(_ body: @escaping @Sendable (Result<Value, any Error>) -> Void) { self.body = body }

        init(_ continuation: CheckedContinuation<Value, any Error>) {
            body = { continuation.resume(with: $0) }
        }

        func resume(with result: Result<Value, any Error>) { body(result) }
    }

    /// A wait that has an id and a continuation but is not in the table yet: the owner either
    /// resumes it at once (its outcome is already there) or inserts it with its condition.
    struct Registration: Sendable {
        let id: UInt64
        /// What the wait waits for, for error messages ("text \"Ready\"").
        let description: String
        /// nil: no time limit.
        let timeout: Duration?
        fileprivate let completion: Completion

        /// Resumes a wait that was not inserted (its outcome was already there).
        func resume(with result: Result<Value, any Error>) { completion.resume(with: result) }
        func resume(returning value: Value) { completion.resume(with: .success(value)) }
        func resume(throwing error: any Error) { completion.resume(with: .failure(error)) }
    }

    /// A registered wait. Only the code that removed it from the table resumes it.
    struct Waiter {
        let id: UInt64
        let description: String
        let condition: Condition
        /// nil: no time limit.
        let timeout: Duration?
        /// `MonotonicClock` nanoseconds at which it times out (nil: never).
        let deadline: UInt64?
        fileprivate let completion: Completion

        func resume(with result: Result<Value, any Error>) { completion.resume(with: result) }
        func resume(returning value: Value) { completion.resume(with: .success(value)) }
        func resume(throwing error: any Error) { completion.resume(with: .failure(error)) }
    }

    /// What an id allocated by `wait` is doing before it is inserted.
    private enum Pending { case allocated, cancelled }

    private let lock = NSLock()
    private let now: @Sendable () -> UInt64
    private let armsTimer: Bool
    private let didRemove: ((Condition) -> Void)?
    private var waiters: [UInt64: Waiter] = [:]
    private var nextID: UInt64 = 1
    /// Ids handed out by `wait` and not inserted yet; `.cancelled` once their task was cancelled.
    private var pending: [UInt64: Pending] = [:]
    private var timer: DispatchSourceTimer?
    private var armedDeadline: UInt64?
    private var isClosed = false

    /// Builds the error a timed-out waiter is resumed with; called without the table's lock
    /// (it may take the owner's). Set once by the owner before the first wait (see
    /// ``describeTimeouts(with:_:)``); by default a ``WaitTimedOut`` naming the waiter's
    /// description.
    var timeoutError: @Sendable (Waiter) -> any Error = { WaitTimedOut(waitingFor: $0.description, timeout: $0.timeout) }

    /// Lets `owner` say what a timed-out waiter is told, without the table keeping it alive
    /// (a wait outliving its owner gets the default ``WaitTimedOut``). Call it from the
    /// owner's `init`, before the first wait.
    func describeTimeouts<Owner: AnyObject & Sendable>(
        with owner: Owner, _ makeError: @escaping @Sendable (Owner, Waiter) -> any Error
    ) {
        timeoutError = { [weak owner] waiter in
            guard let owner else { return WaitTimedOut(waitingFor: waiter.description, timeout: waiter.timeout) }
            return makeError(owner, waiter)
        }
    }

    /// - Parameters:
    ///   - now: the clock deadlines are read from (`MonotonicClock`, the clock Dispatch timers
    ///     use); tests pass their own with `armsTimer: false` and call ``expireDueWaiters()``.
    ///   - armsTimer: whether a Dispatch timer fires the timeouts (tests fire them by hand).
    ///   - didRemove: called, under the table's lock, with the condition of every waiter that
    ///     leaves the table, however it leaves, and of one refused because its task was
    ///     cancelled (to release what the condition holds, a timer).
    init(
        now: @escaping @Sendable () -> UInt64 = { MonotonicClock.nanoseconds() },
        armsTimer: Bool = true,
        didRemove: ((Condition) -> Void)? = nil
    ) {
        self.now = now
        self.armsTimer = armsTimer
        self.didRemove = didRemove
    }

    deinit { timer?.cancel() }

    // MARK: - Registering

    /// Suspends until the wait resolves. `admit` runs at once, before the call suspends for
    /// the first time: it must either resume the registration (the outcome is already there)
    /// or ``insert(_:_:)`` it. Cancelling the task resumes an inserted wait with
    /// `CancellationError`, also when the cancellation came before the insertion (an outcome
    /// already there is returned all the same: such a wait never suspends). `afterInserting`
    /// runs (outside every lock) only when the waiter was inserted, with its id (to send the
    /// call a reply will answer).
    func wait(
        description: String,
        timeout: Duration?,
        admit: (Registration) -> Void,
        afterInserting: ((UInt64) -> Void)? = nil
    ) async throws -> Value {
        let id = allocateID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let registration = Registration(
                    id: id, description: description, timeout: timeout, completion: Completion(continuation))
                admit(registration)
                if settle(id) { afterInserting?(id) }
            }
        } onCancel: {
            cancel(id)
        }
    }

    /// A registration for a wait resumed through `completion` (``wait`` makes one for its
    /// continuation; tests make their own to drive the table step by step).
    func register(description: String, timeout: Duration?, completion: Completion) -> Registration {
        Registration(id: allocateID(), description: description, timeout: timeout, completion: completion)
    }

    private func allocateID() -> UInt64 {
        lock.withLock {
            defer { nextID += 1 }
            pending[nextID] = .allocated
            return nextID
        }
    }

    /// Forgets the id of a registration that `admit` dealt with; returns whether it was
    /// inserted (a registration resumed at once, or cancelled, was not).
    private func settle(_ id: UInt64) -> Bool {
        lock.withLock { pending.removeValue(forKey: id) == nil }
    }

    /// Puts a registration in the table with its condition and arms the timer for its
    /// deadline. If its task was cancelled meanwhile it is resumed with `CancellationError`
    /// instead (and false returned).
    @discardableResult
    func insert(_ registration: Registration, _ condition: Condition) -> Bool {
        let id = registration.id
        let inserted = lock.withLock { () -> Bool in
            // A cancelled id stays pending (as cancelled) until `wait` settles it.
            if pending[id] == .cancelled {
                didRemove?(condition)
                return false
            }
            pending[id] = nil
            var deadline: UInt64?
            if let timeout = registration.timeout {
                let (sum, overflow) = now().addingReportingOverflow(timeout.clampedNanoseconds)
                deadline = overflow ? UInt64.max / 2 : sum
            }
            waiters[id] = Waiter(
                id: id, description: registration.description, condition: condition,
                timeout: registration.timeout, deadline: deadline, completion: registration.completion)
            if let deadline { armLocked(for: deadline) }
            return true
        }
        if !inserted { registration.resume(throwing: CancellationError()) }
        return inserted
    }

    /// The task waiting for `id` was cancelled: resumes the waiter with `CancellationError` if
    /// it is in the table, or marks it so that it is when it registers.
    func cancel(_ id: UInt64) {
        let waiter = lock.withLock { () -> Waiter? in
            if let waiter = removeLocked(id) { return waiter }
            if pending[id] != nil { pending[id] = .cancelled }
            return nil
        }
        waiter?.resume(throwing: CancellationError())
    }

    // MARK: - Reading and removing

    /// The condition of the waiter `id`, if it is still waiting.
    func condition(of id: UInt64) -> Condition? { lock.withLock { waiters[id]?.condition } }

    /// Whether any waiter's condition satisfies `predicate`.
    func contains(where predicate: (Condition) -> Bool) -> Bool {
        lock.withLock { waiters.values.contains { predicate($0.condition) } }
    }

    /// The waiting conditions with their ids, in registration order.
    func conditions() -> [(id: UInt64, condition: Condition)] {
        lock.withLock {
            switch waiters.count {
            case 0: []
            case 1: waiters.values.map { ($0.id, $0.condition) }
            default: waiters.values.sorted { $0.id < $1.id }.map { ($0.id, $0.condition) }
            }
        }
    }

    /// Removes the waiter `id` for its caller to resume; nil when it already left (resolved,
    /// timed out, cancelled or ended).
    func remove(_ id: UInt64) -> Waiter? { lock.withLock { removeLocked(id) } }

    /// Removes the waiter `id` if it satisfies `predicate` (a reply for a call, not for
    /// another kind of wait that happens to have that id).
    func remove(_ id: UInt64, where predicate: (Waiter) -> Bool) -> Waiter? {
        lock.withLock {
            guard let waiter = waiters[id], predicate(waiter) else { return nil }
            return removeLocked(id)
        }
    }

    /// Removes every waiter (the owner ended) for the caller to resume, in registration order.
    func removeAll() -> [Waiter] { removeAll { _ in true } }

    /// Removes the waiters whose condition satisfies `predicate`, in registration order.
    func removeAll(where predicate: (Waiter) -> Bool) -> [Waiter] {
        removeSatisfied { predicate($0) ? () : nil }.map(\.waiter)
    }

    /// Visits the waiters in registration order and removes each for which `match` returns an
    /// outcome, returning it with its outcome. `match` runs under the table's lock, one waiter
    /// after the other, so it may advance the owner's state (a stream cursor) as it goes.
    func removeSatisfied<Outcome>(_ match: (Waiter) -> Outcome?) -> [(waiter: Waiter, outcome: Outcome)] {
        lock.withLock {
            var satisfied: [(waiter: Waiter, outcome: Outcome)] = []
            for id in waiters.keys.sorted() {
                guard let outcome = match(waiters[id]!) else { continue }
                satisfied.append((removeLocked(id)!, outcome))
            }
            return satisfied
        }
    }

    /// How many waiters are registered.
    var count: Int { lock.withLock { waiters.count } }

    private func removeLocked(_ id: UInt64) -> Waiter? {
        guard let waiter = waiters.removeValue(forKey: id) else { return nil }
        didRemove?(waiter.condition)
        return waiter
    }

    // MARK: - Timeouts

    /// Fails, with ``timeoutError``, every waiter whose deadline has passed, and re-arms the
    /// timer for the next. The timer calls it; tests with their own clock call it themselves.
    func expireDueWaiters() {
        let expired = lock.withLock { () -> [Waiter] in
            armedDeadline = nil
            let current = now()
            var expired: [Waiter] = []
            var next: UInt64?
            for id in waiters.keys.sorted() {
                guard let deadline = waiters[id]!.deadline else { continue }
                if deadline <= current {
                    expired.append(removeLocked(id)!)
                } else {
                    next = min(next ?? .max, deadline)
                }
            }
            if let next { armLocked(for: next) }
            return expired
        }
        for waiter in expired { waiter.resume(throwing: timeoutError(waiter)) }
    }

    /// One timer serves every deadline. It is armed for the earliest and only re-armed when a
    /// new waiter ends sooner, so registering costs no timer call in the common case (equal
    /// timeouts, increasing start times); when it fires it fails the expired waiters and
    /// re-arms for the next.
    private func armLocked(for deadline: UInt64) {
        guard armsTimer, !isClosed else { return }
        if let armedDeadline, armedDeadline <= deadline { return }
        armedDeadline = deadline
        let when = DispatchTime(uptimeNanoseconds: deadline)
        if let timer {
            timer.schedule(deadline: when, leeway: .milliseconds(1))
        } else {
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.setEventHandler { [weak self] in self?.expireDueWaiters() }
            timer.schedule(deadline: when, leeway: .milliseconds(1))
            timer.resume()
            self.timer = timer
        }
    }

    /// Stops the timer for good (the owner was torn down; its waiters were ended).
    func close() {
        lock.withLock {
            isClosed = true
            timer?.cancel()
            timer = nil
            armedDeadline = nil
        }
    }
}

/// The error a ``WaiterTable`` resumes a timed-out waiter with when its owner did not say
/// otherwise.
struct WaitTimedOut: Error, CustomStringConvertible {
    /// What the wait waited for.
    let waitingFor: String
    let timeout: Duration?

    var description: String {
        "timed out" + (timeout.map { " after \($0)" } ?? "") + " waiting for \(waitingFor)"
    }
}
