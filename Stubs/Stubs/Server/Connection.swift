import HarnessSystem
/// What the request handler decided for one request.
struct RequestAnswer {
    /// What to do (sequences already resolved).
    var behaviour: StubBehaviour
    /// The stub that answered, if any (a hang waits on it).
    var stubID: StubID?
    /// The journaled form of the request (nil for admin and malformed requests).
    var recorded: RecordedRequest?
}

/// Decides answers; implemented by the server core. Called on the event loop only.
protocol RequestHandling: AnyObject, Sendable {
    /// Journals and matches a complete request.
    func answer(_ request: HTTPRequest) -> RequestAnswer
    /// Matches again a request whose hanging stub was removed (not journaled again).
    func answerAgain(_ recorded: RecordedRequest) -> RequestAnswer
}

/// One accepted client connection and its progress. Loop-owned: only its `ConnectionDriver`
/// touches it, on the event loop.
final class Connection {
    /// A unit of output work, done in order.
    enum Step {
        case write([UInt8])
        case throttled([UInt8], bytesPerWrite: Int, intervalNanoseconds: UInt64)
        case pause(nanoseconds: UInt64)
        case hang
        case close
        case reset
        /// The response is complete: keep reading if keep-alive, else close gracefully.
        case finish
    }

    /// Where the connection is.
    enum Phase: Equatable {
        /// Parsing requests from the input.
        case idle
        /// Working through `steps`.
        case responding
        /// Waiting for its timer (delay or throttle).
        case paused
        /// A hang: no answer until its stub is removed or the server stops.
        case hanging
        /// Sent everything and shut down writing; discarding input until EOF or a deadline.
        case draining
        /// Closed; the loop drops it.
        case closed
    }

    let id: UInt64
    let fd: Int32
    /// Its registration with the event loop (nil once closed).
    var watch: EventLoop.Watch?
    /// What the watch waits for now.
    var interest = Posix.PollEvents(rawValue: 0)
    var input = InputBuffer()
    var parser: HTTPRequestParser
    var output: [UInt8] = []
    var outputOffset = 0
    var steps: [Step] = []
    var stepIndex = 0
    var phase: Phase = .idle
    var peerClosed = false
    /// Whether the current response leaves the connection open.
    var keepAlive = true
    /// The request being answered (for re-matching after a hang).
    var currentRequest: HTTPRequest?
    var currentRecorded: RecordedRequest?
    var hangingStubID: StubID?
    /// Whether it counts among the server's pending answers (a request received, its answer
    /// not sent in full).
    var answering = false
    /// The one timer a connection can have, and what it does when it fires.
    var timer: EventLoop.Timer?
    var deadlineAction: DeadlineAction = .resume
    /// How far the next request has come while the connection waits for it (`.idle` phase).
    var requestWait: RequestWait = .none

    /// What a connection's timer does.
    enum DeadlineAction {
        /// End a pause (delay or throttle interval).
        case resume
        /// Give up waiting for the client's FIN and close.
        case lingerExpired
        /// The request timeout passed while waiting for a request (see `requestWait`).
        case requestTimedOut
    }

    /// The stages of waiting for a request, each with its own deadline: once bytes of a request
    /// arrived, its deadline is not moved again until the request is complete, so a client that
    /// trickles a byte at a time is cut off as surely as a silent one.
    enum RequestWait: Equatable {
        /// Not waiting (answering, hanging, closing).
        case none
        /// No byte of the next request yet: the idle deadline runs.
        case idle
        /// Part of a request arrived: the deadline for the whole request runs.
        case reading
    }

    init(id: UInt64, fd: Int32, limits: HTTPRequestParser.Limits) {
        self.id = id
        self.fd = fd
        self.parser = HTTPRequestParser(limits: limits)
    }

    var hasPendingOutput: Bool { outputOffset < output.count }

    /// Replaces the remaining steps.
    func setSteps(_ newSteps: [Step]) {
        steps = newSteps
        stepIndex = 0
    }

    /// The next step, or nil when none remain.
    func popStep() -> Step? {
        guard stepIndex < steps.count else { return nil }
        defer { stepIndex += 1 }
        return steps[stepIndex]
    }

    /// Puts steps back in front of the remaining ones.
    func pushFront(_ newSteps: [Step]) {
        steps = newSteps + steps[stepIndex...]
        stepIndex = 0
    }

    /// The steps that carry out `behaviour` for `request`.
    static func steps(for behaviour: StubBehaviour, request: HTTPRequest) -> [Step] {
        switch behaviour.kind {
        case .respond(let response):
            var steps: [Step] = []
            if let delay = response.delay { steps.append(.pause(nanoseconds: delay.clampedNanoseconds)) }
            let bytes: [UInt8]
            switch response.bodyBytes() {
            case .success(let body):
                bytes = HTTPResponseSerializer.serialize(
                    status: response.status, headers: response.headers, body: body,
                    headOnly: request.head.method == "HEAD", keepAlive: request.head.keepAlive,
                    chunkSize: request.head.minorVersion >= 1 ? response.chunkSize : nil
                )
            case .failure(let error):
                bytes = HTTPResponseSerializer.serialize(
                    status: 500, headers: ["Content-Type": "text/plain; charset=utf-8"],
                    body: Array(error.description.utf8), headOnly: request.head.method == "HEAD",
                    keepAlive: request.head.keepAlive
                )
            }
            if let throttle = response.throttle {
                steps.append(.throttled(
                    bytes, bytesPerWrite: throttle.bytes, intervalNanoseconds: throttle.interval.clampedNanoseconds
                ))
            } else {
                steps.append(.write(bytes))
            }
            steps.append(.finish)
            return steps
        case .hang:
            return [.hang]
        case .closeConnection:
            return [.close]
        case .reset:
            return [.reset]
        case .garbage(let data):
            return [.write(Array(data)), .close]
        case .delayed(let delay, let behaviour):
            return [.pause(nanoseconds: delay.clampedNanoseconds)] + steps(for: behaviour, request: request)
        case .sequence:
            // The registry resolves sequences before answering; answer the first element defensively.
            return steps(for: behaviour.resolved(forMatch: 0), request: request)
        }
    }
}
