// The pending waits of every owner of the package: sessions, piped sessions, the bridge
// client and the stub server keep theirs in one of these.

import Synchronization

/// The pending waits of one owner (a terminal session, a piped session, a bridge): each is a
/// condition and a continuation, resumed exactly once, by whichever comes first of its
/// success, its timeout, the task's cancellation or the owner's end.
///
/// The table owns what every owner used to write again: the ids, registration with a deadline,
/// cancellation (also before registration), the one event-loop timer armed for the earliest
/// deadline, and removal, which is what makes each resumption happen once: a waiter is resumed
/// only by whoever removed it from the table, and it can be removed only once.
///
/// The table lives on its event loop (``LoopBound``, checked on every access): a wait's
/// admission, its cancellation and its timeout all run there, and the owner reads and removes
/// waiters from its handlers on the loop. The owner decides what satisfies a condition and what
/// ends it, and resumes the waiters it removed.
///
/// ```swift
/// let reply = try await table.wait(description: "the reply", timeout: .seconds(5)) { registration in
///     // on the loop
///     if let reply = replies.value.first { registration.resume(returning: reply) } else { table.insert(registration, .reply) }
/// }
/// ```
package final class WaiterTable<Condition, Value: Sendable>: Sendable {
    /// Resumes a suspended wait; wraps its continuation (or, in tests, a closure).
    package struct Completion: Sendable {
        private let body: @Sendable (Result<Value, any Error>) -> Void

        package init(_ body: @escaping @Sendable (Result<Value, any Error>) -> Void) { self.body = body }

        package init(_ continuation: CheckedContinuation<Value, any Error>) {
            body = { continuation.resume(with: $0) }
        }

        package func resume(with result: Result<Value, any Error>) { body(result) }
    }

    /// A wait that has an id and a continuation but is not in the table yet: the owner either
    /// resumes it at once (its outcome is already there) or inserts it with its condition.
    package struct Registration: Sendable {
        package let id: UInt64
        /// What the wait waits for, for error messages ("text \"Ready\"").
        package let description: String
        /// nil: no time limit.
        package let timeout: Duration?
        fileprivate let completion: Completion

        /// Resumes a wait that was not inserted (its outcome was already there).
        package func resume(with result: Result<Value, any Error>) { completion.resume(with: result) }
        package func resume(returning value: Value) { completion.resume(with: .success(value)) }
        package func resume(throwing error: any Error) { completion.resume(with: .failure(error)) }
    }

    /// A registered wait. Only the code that removed it from the table resumes it.
    package struct Waiter {
        package let id: UInt64
        package let description: String
        package let condition: Condition
        /// nil: no time limit.
        package let timeout: Duration?
        /// `MonotonicClock` nanoseconds at which it times out (nil: never).
        package let deadline: UInt64?
        fileprivate let completion: Completion

        package func resume(with result: Result<Value, any Error>) { completion.resume(with: result) }
        package func resume(returning value: Value) { completion.resume(with: .success(value)) }
        package func resume(throwing error: any Error) { completion.resume(with: .failure(error)) }
    }

    /// What an id allocated by `wait` is doing before it is inserted.
    private enum Pending { case allocated, cancelled }

    private struct State {
        var waiters: [UInt64: Waiter] = [:]
        /// Ids handed out by `wait` and not inserted yet; `.cancelled` once their task was cancelled.
        var pending: [UInt64: Pending] = [:]
        var timer: EventLoop.Timer?
        var armedDeadline: UInt64?
        var isClosed = false
    }

    /// Set when a wait's task is cancelled: its admission, on the loop, reads it (a cancellation
    /// that comes before the admission reaches the loop is not lost).
    private final class CancelFlag: Sendable {
        let isSet = Atomic<Bool>(false)
    }

    private let state: LoopBound<State>
    private let loop: EventLoop
    /// The next id: taken on any thread (a wait numbers itself before it reaches the loop).
    private let nextID = Atomic<UInt64>(1)
    private let now: @Sendable () -> UInt64
    private let armsTimer: Bool
    private let didRemove: (@Sendable (Condition) -> Void)?
    /// Set once by the owner, before the first wait.
    private let makeTimeoutError = Locked<@Sendable (Waiter) -> any Error>({
        WaitTimeout(awaited: $0.description, timeout: $0.timeout)
    })

    /// Builds the error a timed-out waiter is resumed with. Set once by the owner before the
    /// first wait (see ``describeTimeouts(with:_:)``); by default a ``WaitTimeout`` naming the
    /// waiter's description.
    package var timeoutError: @Sendable (Waiter) -> any Error {
        get { makeTimeoutError.withLock { $0 } }
        set { makeTimeoutError.withLock { $0 = newValue } }
    }

    /// Lets `owner` say what a timed-out waiter is told, without the table keeping it alive
    /// (a wait outliving its owner gets the default ``WaitTimeout``). Call it from the
    /// owner's `init`, before the first wait.
    package func describeTimeouts<Owner: AnyObject & Sendable>(
        with owner: Owner, _ makeError: @escaping @Sendable (Owner, Waiter) -> any Error
    ) {
        timeoutError = { [weak owner] waiter in
            guard let owner else { return WaitTimeout(awaited: waiter.description, timeout: waiter.timeout) }
            return makeError(owner, waiter)
        }
    }

    /// - Parameters:
    ///   - loop: the loop the table lives on (its owner's).
    ///   - now: the clock deadlines are read from (`MonotonicClock`, the clock of the event
    ///     loop's timers); tests pass their own with `armsTimer: false` and call
    ///     ``expireDueWaiters()``.
    ///   - armsTimer: whether a timer of the event loop fires the timeouts (tests fire them by
    ///     hand).
    ///   - didRemove: called, on the loop, with the condition of every waiter that leaves the
    ///     table, however it leaves, and of one refused because its task was cancelled (to
    ///     release what the condition holds, a timer).
    package init(
        loop: EventLoop = .shared,
        now: @escaping @Sendable () -> UInt64 = { MonotonicClock.nanoseconds() },
        armsTimer: Bool = true,
        didRemove: (@Sendable (Condition) -> Void)? = nil
    ) {
        self.loop = loop
        self.state = LoopBound(State(), on: loop)
        self.now = now
        self.armsTimer = armsTimer
        self.didRemove = didRemove
    }

    // MARK: - Registering

    /// Suspends until the wait resolves. `admit` runs on the loop, once: it must either resume
    /// the registration (the outcome is already there) or ``insert(_:_:)`` it. Cancelling the
    /// task resumes an inserted wait with `CancellationError`, also when the cancellation came
    /// before the insertion (an outcome already there is returned all the same). `afterInserting`
    /// runs on the loop only when the waiter was inserted, with its id (to send the call a reply
    /// will answer).
    ///
    /// With `wakeNow`, the admission waits for the loop's next wake-up instead of waking it
    /// (``EventLoop/executeOnNextWakeUp(_:wakeNow:)``): for a wait that only an event can
    /// satisfy (output on its way), so that the loop wakes once, for the event, and admits
    /// the wait then. `wakeNow` says whether the outcome may be there already.
    package func wait(
        description: String,
        timeout: Duration?,
        wakeNow: (() -> Bool)? = nil,
        admit: @escaping @Sendable (Registration) -> Void,
        afterInserting: (@Sendable (UInt64) -> Void)? = nil
    ) async throws -> Value {
        let id = allocateID()
        let cancelled = CancelFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let registration = Registration(
                    id: id, description: description, timeout: timeout, completion: Completion(continuation))
                let admission: @Sendable () -> Void = { [self] in
                    open(id, cancelled: cancelled.isSet.load(ordering: .acquiring))
                    admit(registration)
                    if settle(id) { afterInserting?(id) }
                }
                if let wakeNow {
                    loop.executeOnNextWakeUp(admission, wakeNow: wakeNow)
                } else {
                    loop.execute(admission)
                }
            }
        } onCancel: {
            cancelled.isSet.store(true, ordering: .releasing)
            loop.execute { [self] in cancel(id) }
        }
    }

    /// A registration for a wait resumed through `completion` (``wait`` makes one for its
    /// continuation; tests make their own to drive the table step by step). On the loop.
    package func register(description: String, timeout: Duration?, completion: Completion) -> Registration {
        let id = allocateID()
        open(id)
        return Registration(id: id, description: description, timeout: timeout, completion: completion)
    }

    private func allocateID() -> UInt64 {
        nextID.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Marks `id` pending, on the loop (as cancelled when its task already was).
    private func open(_ id: UInt64, cancelled: Bool = false) {
        state.value.pending[id] = cancelled ? .cancelled : .allocated
    }

    /// Forgets the id of a registration that `admit` dealt with; returns whether it was
    /// inserted (a registration resumed at once, or cancelled, was not).
    private func settle(_ id: UInt64) -> Bool {
        state.value.pending.removeValue(forKey: id) == nil
    }

    /// Puts a registration in the table with its condition and arms the timer for its
    /// deadline. If its task was cancelled meanwhile it is resumed with `CancellationError`
    /// instead (and false returned).
    @discardableResult
    package func insert(_ registration: Registration, _ condition: Condition) -> Bool {
        let id = registration.id
        let inserted = state.withValue { state -> Bool in
            // A cancelled id stays pending (as cancelled) until `wait` settles it.
            if state.pending[id] == .cancelled {
                didRemove?(condition)
                return false
            }
            state.pending[id] = nil
            var deadline: UInt64?
            if let timeout = registration.timeout {
                let (sum, overflow) = now().addingReportingOverflow(timeout.clampedNanoseconds)
                deadline = overflow ? UInt64.max / 2 : sum
            }
            state.waiters[id] = Waiter(
                id: id, description: registration.description, condition: condition,
                timeout: registration.timeout, deadline: deadline, completion: registration.completion)
            if let deadline { arm(&state, for: deadline) }
            return true
        }
        if !inserted { registration.resume(throwing: CancellationError()) }
        return inserted
    }

    /// The task waiting for `id` was cancelled: resumes the waiter with `CancellationError` if
    /// it is in the table, or marks it so that it is when it registers.
    package func cancel(_ id: UInt64) {
        let waiter = state.withValue { state -> Waiter? in
            if let waiter = remove(&state, id) { return waiter }
            if state.pending[id] != nil { state.pending[id] = .cancelled }
            return nil
        }
        waiter?.resume(throwing: CancellationError())
    }

    // MARK: - Reading and removing

    /// The condition of the waiter `id`, if it is still waiting.
    package func condition(of id: UInt64) -> Condition? { state.withValue { $0.waiters[id]?.condition } }

    /// Whether any waiter's condition satisfies `predicate`.
    package func contains(where predicate: (Condition) -> Bool) -> Bool {
        state.withValue { $0.waiters.values.contains { predicate($0.condition) } }
    }

    /// The waiting conditions with their ids, in registration order.
    package func conditions() -> [(id: UInt64, condition: Condition)] {
        state.withValue { state in
            switch state.waiters.count {
            case 0: []
            case 1: state.waiters.values.map { ($0.id, $0.condition) }
            default: state.waiters.values.sorted { $0.id < $1.id }.map { ($0.id, $0.condition) }
            }
        }
    }

    /// Removes the waiter `id` for its caller to resume; nil when it already left (resolved,
    /// timed out, cancelled or ended).
    package func remove(_ id: UInt64) -> Waiter? { state.withValue { remove(&$0, id) } }

    /// Removes the waiter `id` if it satisfies `predicate` (a reply for a call, not for
    /// another kind of wait that happens to have that id).
    package func remove(_ id: UInt64, where predicate: (Waiter) -> Bool) -> Waiter? {
        state.withValue { state in
            guard let waiter = state.waiters[id], predicate(waiter) else { return nil }
            return remove(&state, id)
        }
    }

    /// Removes every waiter (the owner ended) for the caller to resume, in registration order.
    package func removeAll() -> [Waiter] { removeAll { _ in true } }

    /// Removes the waiters whose condition satisfies `predicate`, in registration order.
    package func removeAll(where predicate: (Waiter) -> Bool) -> [Waiter] {
        removeSatisfied { predicate($0) ? () : nil }.map(\.waiter)
    }

    /// Visits the waiters in registration order and removes each for which `match` returns an
    /// outcome, returning it with its outcome. `match` runs one waiter after the other, so it may advance the owner's state (a stream cursor) as it goes.
    package func removeSatisfied<Outcome>(_ match: (Waiter) -> Outcome?) -> [(waiter: Waiter, outcome: Outcome)] {
        state.withValue { state in
            var satisfied: [(waiter: Waiter, outcome: Outcome)] = []
            for id in state.waiters.keys.sorted() {
                guard let outcome = match(state.waiters[id]!) else { continue }
                satisfied.append((remove(&state, id)!, outcome))
            }
            return satisfied
        }
    }

    /// How many waiters are registered.
    package var count: Int { state.withValue { $0.waiters.count } }

    private func remove(_ state: inout State, _ id: UInt64) -> Waiter? {
        guard let waiter = state.waiters.removeValue(forKey: id) else { return nil }
        didRemove?(waiter.condition)
        return waiter
    }

    // MARK: - Timeouts

    /// Fails, with ``timeoutError``, every waiter whose deadline has passed, and re-arms the
    /// timer for the next. The timer calls it; tests with their own clock call it themselves.
    package func expireDueWaiters() {
        let expired = state.withValue { state -> [Waiter] in
            state.armedDeadline = nil
            state.timer = nil
            let current = now()
            var expired: [Waiter] = []
            var next: UInt64?
            for id in state.waiters.keys.sorted() {
                guard let deadline = state.waiters[id]!.deadline else { continue }
                if deadline <= current {
                    expired.append(remove(&state, id)!)
                } else {
                    next = min(next ?? .max, deadline)
                }
            }
            if let next { arm(&state, for: next) }
            return expired
        }
        let makeError = timeoutError
        for waiter in expired { waiter.resume(throwing: makeError(waiter)) }
    }

    /// One timer serves every deadline. It is armed for the earliest and only re-armed when a
    /// new waiter ends sooner, so registering costs no timer call in the common case (equal
    /// timeouts, increasing start times); when it fires it fails the expired waiters and
    /// re-arms for the next.
    private func arm(_ state: inout State, for deadline: UInt64) {
        guard armsTimer, !state.isClosed else { return }
        if let armed = state.armedDeadline, armed <= deadline { return }
        state.armedDeadline = deadline
        if let timer = state.timer { loop.cancel(timer) }
        state.timer = loop.schedule(at: deadline) { [weak self] in self?.expireDueWaiters() }
    }

    /// Stops the timer for good (the owner was torn down; its waiters were ended).
    package func close() {
        let timer = state.withValue { state -> EventLoop.Timer? in
            state.isClosed = true
            state.armedDeadline = nil
            defer { state.timer = nil }
            return state.timer
        }
        if let timer { loop.cancel(timer) }
    }
}
