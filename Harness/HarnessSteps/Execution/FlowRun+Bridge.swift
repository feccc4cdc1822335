import Foundation
import HarnessCore
import HarnessWire
import HarnessSystem

extension FlowRun {
    /// The app's bridge (the flow was launched with `.bridge` because it has spy/event lines).
    private var bridge: AppBridge {
        get throws(FlowStepFailure) {
            guard let app else { throw FlowStepFailure("the app is not running (no launch yet)", showsScreen: false) }
            guard let bridge = app.connectedBridge else { throw FlowStepFailure("the app has no bridge") }
            return bridge
        }
    }

    /// Whether a bridge wait failed because its time ran out (not because the bridge ended).
    package static func isTimeout(_ error: any Error) -> Bool {
        switch error {
        case BridgeError.waitTimedOut, BridgeError.callTimedOut: true
        default: false
        }
    }

    /// A wait that ended early: the app exited or its bridge closed. Says so, instead of a
    /// "within 5s" that did not happen.
    package static func bridgeEnded(_ error: any Error, waitingFor what: String) -> FlowStepFailure {
        switch error {
        case BridgeError.appExited(let status, _, _):
            FlowStepFailure("the app \(status) while waiting for \(what)", details: "\(error)")
        case BridgeError.protocolError:
            FlowStepFailure("the harness dropped the app's bridge (a malformed frame) while waiting for \(what)",
                            details: "\(error)")
        case BridgeError.connectionLost, BridgeError.closed:
            FlowStepFailure("the app's bridge closed while waiting for \(what)", details: "\(error)")
        default:
            FlowStepFailure("waiting for \(what) failed", details: "\(error)")
        }
    }

    // MARK: - spy

    /// `spy NAME count N`: waits (up to the timeout) for the N-th call, then checks that there
    /// are exactly N.
    package func spyCount(_ name: String, _ count: Int) async throws {
        let spy = try bridge.spy(name, as: JSONValue.self)
        if count >= 1 {
            do {
                _ = try await spy.waitForCall(number: count, timeout: timeout)
            } catch {
                guard Self.isTimeout(error) else { throw Self.bridgeEnded(error, waitingFor: "the spy's call \(count)") }
                let actual = spy.receivedCount
                throw FlowStepFailure("the spy recorded \(actual) call\(actual == 1 ? "" : "s") within "
                                      + "\(FlowDurationParser.format(timeout)), expected \(count)", details: "\(error)")
            }
        }
        let actual: Int
        do {
            actual = try await spy.count
        } catch {
            throw FlowStepFailure("cannot read the spy: \(error)")
        }
        if actual != count {
            throw FlowStepFailure("the spy recorded \(actual) call\(actual == 1 ? "" : "s"), expected \(count)")
        }
    }

    /// `spy NAME last FILE.json`: waits (up to the timeout) for a first call, then compares
    /// the last one with the file as JSON (object key order and number spelling ignored).
    package func spyLast(_ name: String, _ file: FlowFileReference) async throws {
        let spy = try bridge.spy(name, as: JSONValue.self)
        let expected = try Self.checkedJSON(.file(file), named: file.written, JSONValue.init(parsing:))
        let last: JSONValue?
        do {
            _ = try await spy.waitForCall(number: 1, timeout: timeout)
            last = try await spy.last
        } catch {
            guard Self.isTimeout(error) else { throw Self.bridgeEnded(error, waitingFor: "the spy's first call") }
            throw FlowStepFailure("the spy recorded no call within \(FlowDurationParser.format(timeout))", details: "\(error)")
        }
        guard let last, last != expected else { return }
        let pretty = { (value: JSONValue) in String(decoding: Self.prettyJSON(value), as: UTF8.self) }
        let diff = SnapshotDiffing<String>.lines.diff(pretty(expected), pretty(last)) ?? ""
        throw FlowStepFailure("the spy's last call differs from \(file.written)", details: diff, showsScreen: false)
    }

    // MARK: - event

    /// `event NAME sequence V1,V2,...`: waits (up to the timeout) until N events named `NAME`
    /// arrived, then checks that exactly these values arrived, in order. A value matches an
    /// expected word when its JSON text is that word (`42`, `true`) or it is a JSON string
    /// holding it (`"loaded"`).
    package func eventSequence(_ name: String, _ values: [String]) async throws {
        let bridge = try bridge
        let awaited = awaitedEvents[name] ?? 0
        var waitError: (any Error)?
        if values.count > awaited {
            do {
                _ = try await bridge.nextEvents(values.count - awaited, named: name, timeout: timeout)
                awaitedEvents[name] = values.count
            } catch {
                waitError = error
            }
        }
        let received = bridge.receivedEvents.filter { $0.name == name }
        let matches = received.count == values.count
            && zip(received, values).allSatisfy { Self.eventValue($0.value, matches: $1) }
        guard !matches else { return }
        let shown = received.map { Self.displayValue($0.value) }.joined(separator: ",")
        let problem = "the events \(name) were \(received.isEmpty ? "(none)" : shown)"
            + (waitError == nil ? "" : " (waited \(FlowDurationParser.format(timeout)) for \(values.count))")
        throw FlowStepFailure(problem)
    }

    /// Whether an event's JSON value stands for the flow's word.
    package static func eventValue(_ value: RawJSON, matches expected: String) -> Bool {
        if value.text == expected { return true }
        if let string = try? JSONDecoder().decode(String.self, from: value.data) { return string == expected }
        return false
    }

    /// A value as the flow would write it: a string without its quotes, anything else as JSON.
    package static func displayValue(_ value: RawJSON) -> String {
        (try? JSONDecoder().decode(String.self, from: value.data)) ?? value.text
    }

    /// The bridge events received so far, as a JSON array (for artifacts), or nil without a bridge.
    package func eventsJSON() -> Data? {
        guard let bridge = app?.connectedBridge else { return nil }
        let events: [JSONValue] = bridge.receivedEvents.map { event in
            .object([
                "seq": .number(Double(event.seq)),
                "name": .string(event.name),
                "value": (try? JSONValue(parsing: event.value.data)) ?? .string(event.value.text),
            ])
        }
        return Self.prettyJSON(.array(events))
    }
}

// MARK: - call, probe, given

extension FlowRun {
    /// The JSON of a `call`, `probe` or `given json` argument.
    package static func data(of json: FlowJSON) throws -> Data {
        switch json {
        case .inline(let text): Data(text.utf8)
        case .file(let file): try read(file)
        }
    }

    /// The parsed JSON of an expected value (`equals`), or a failure naming the file.
    package static func expectedValue(_ json: FlowJSON) throws -> JSONValue {
        try checkedJSON(json, named: "\(json)", JSONValue.init(parsing:))
    }

    /// The JSON of an argument, checked by `check`: a file that cannot be read fails as
    /// ``data(of:)`` says, JSON that `check` rejects fails saying that `name` is not valid JSON.
    package static func checkedJSON<Value>(_ json: FlowJSON, named name: String, _ check: (Data) throws -> Value) throws -> Value {
        do {
            return try check(try data(of: json))
        } catch let failure as FlowStepFailure {
            throw failure
        } catch {
            throw FlowStepFailure("\(name) is not valid JSON: \(error)", showsScreen: false)
        }
    }

    /// `call NAME [JSON] [equals JSON]` and `probe NAME equals JSON`: calls the app through the
    /// bridge (params `null` when none are given), then compares the reply with the expected
    /// JSON (object key order, whitespace and number spelling ignored).
    package func call(_ name: String, params: FlowJSON?, expected: FlowJSON?, isProbe: Bool = false) async throws {
        let bridge = try bridge
        let paramsJSON = try params.map { try Self.checkedJSON($0, named: "the params \($0)", RawJSON.init(validating:)) } ?? .null
        let expectedValue = try expected.map(Self.expectedValue)
        let what = isProbe ? "the probe \(name)" : "the reply to \(name)"
        let reply = try await callReply(bridge, name, paramsJSON, what: what)
        lastReply = reply
        guard let expected, let expectedValue else { return }
        let actual: JSONValue
        do {
            actual = try JSONValue(parsing: reply.data)
        } catch {
            throw FlowStepFailure("the app's reply is not valid JSON: \(reply.text)", showsScreen: false)
        }
        guard actual != expectedValue else { return }
        let pretty = { (value: JSONValue) in String(decoding: Self.prettyJSON(value), as: UTF8.self) }
        let diff = SnapshotDiffing<String>.lines.diff(pretty(expectedValue), pretty(actual)) ?? ""
        let subject = isProbe ? "the probe's value" : "the reply"
        throw FlowStepFailure("\(subject) differs from \(expected)", details: diff, showsScreen: false)
    }

    /// `given NAME` / `given json JSON` after launch: calls the app's `given` handler with the
    /// name as a JSON string, or with the JSON; fails when the app refuses it.
    package func callGiven(_ given: FlowGiven) async throws {
        let bridge = try bridge
        let params: RawJSON
        switch given {
        case .name(let name):
            params = (try? RawJSON(encoding: name)) ?? .null
        case .json(let json):
            params = try Self.checkedJSON(json, named: "\(json)", RawJSON.init(validating:))
        }
        _ = try await callReply(bridge, "given", params, what: "the reply to given")
    }

    /// One call through the bridge; every way it can fail becomes a headline that names the
    /// real cause: the app refused it (and why), the app exited or its bridge closed, or no
    /// reply came (with the time really waited).
    private func callReply(_ bridge: AppBridge, _ name: String, _ params: RawJSON, what: String) async throws -> RawJSON {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            return try await bridge.callRaw(name, params: params, timeout: timeout)
        } catch BridgeError.unknownName(_, let available) {
            throw FlowStepFailure(
                "the app refused the call: it exposes no probe or handler named \(name)",
                details: "available: " + (available.isEmpty ? "(none)" : available.joined(separator: ", ")), showsScreen: false)
        } catch BridgeError.remoteError(_, let code, let message) {
            throw FlowStepFailure("the app refused the call (\(code)): \(message)", showsScreen: false)
        } catch {
            guard Self.isTimeout(error) else { throw Self.bridgeEnded(error, waitingFor: what) }
            let waited = FlowDurationParser.format(clock.now - start)
            throw FlowStepFailure("the app did not answer \(name) within \(FlowDurationParser.format(timeout)) "
                                  + "(waited \(waited))", details: "\(error)")
        }
    }
}
