import Foundation
import HarnessWire

extension HarnessHost {
    // MARK: - Spies

    /// Declares a spy; tests read its values with `__spy.calls` / `AppBridge.spy`.
    public func spy<Value: Encodable>(_ name: String, of type: Value.Type = Value.self) -> Spy<Value> {
        lock.withLock {
            if spyValues[name] == nil { spyValues[name] = [] }
        }
        return Spy(name: name, host: self)
    }

    func record<Value: Encodable>(spy name: String, value: Value) {
        let raw: RawJSON
        do { raw = try RawJSON(encoding: value) } catch {
            lock.withLock { oversizedDrops += 1 }
            return
        }
        lock.withLock {
            let index = UInt64(spyValues[name, default: []].count)
            spyValues[name, default: []].append(raw)
            sendLocked(.record(spy: name, index: index, value: raw))
        }
    }

    func spyCount(_ name: String) -> Int {
        lock.withLock { spyValues[name]?.count ?? 0 }
    }

    // MARK: - Probes and handlers

    /// Declares a probe: a call named `name` that returns `read()`.
    ///
    /// `read` runs on the bridge thread: it must be thread-safe.
    public func probe<Value: Encodable & SendableMetatype>(_ name: String, _ read: @escaping @Sendable () throws -> Value) {
        register(name, CallEntry(kind: .probe, body: .sync { _ in
            do { return Self.encodeResult(try read()) } catch {
                return .failure(RemoteError(.handlerFailed, "probe '\(name)' threw: \(error)"))
            }
        }))
    }

    /// Declares a handler: a call named `name` whose params decode as `Params`.
    ///
    /// `body` runs on the bridge thread, one call at a time: it must be thread-safe.
    public func handle<Params: Decodable & SendableMetatype, Output: Encodable & SendableMetatype>(
        _ name: String, as type: Params.Type, _ body: @escaping @Sendable (Params) throws -> Output
    ) {
        register(name, CallEntry(kind: .handler, body: .sync { raw in
            let params: Params
            switch Self.decodeParams(raw, as: Params.self, name: name) {
            case .success(let value): params = value
            case .failure(let error): return .failure(error)
            }
            do { return Self.encodeResult(try body(params)) } catch {
                return .failure(RemoteError(.handlerFailed, "handler '\(name)' threw: \(error)"))
            }
        }))
    }

    /// Declares a handler without params or result (it replies `null`).
    public func handle(_ name: String, _ body: @escaping @Sendable () throws -> Void) {
        register(name, CallEntry(kind: .handler, body: .sync { _ in
            do {
                try body()
                return .success(.null)
            } catch {
                return .failure(RemoteError(.handlerFailed, "handler '\(name)' threw: \(error)"))
            }
        }))
    }

    /// Declares an async handler; it runs in a task, so it may hop to the main actor.
    public func handleAsync<Params: Decodable & SendableMetatype, Output: Encodable & SendableMetatype>(
        _ name: String, as type: Params.Type, _ body: @escaping @Sendable (Params) async throws -> Output
    ) {
        register(name, CallEntry(kind: .handler, body: .async { raw in
            let params: Params
            switch Self.decodeParams(raw, as: Params.self, name: name) {
            case .success(let value): params = value
            case .failure(let error): return .failure(error)
            }
            do { return Self.encodeResult(try await body(params)) } catch {
                return .failure(RemoteError(.handlerFailed, "handler '\(name)' threw: \(error)"))
            }
        }))
    }

    // MARK: - Events

    /// Publishes an event; tests receive events in the order they were published.
    ///
    /// Each event gets the next sequence number; a gap in the numbers tells the
    /// harness that events were dropped. Never blocks.
    public func publish<Value: Encodable>(_ event: String, _ value: Value) {
        guard lock.withLock({ connection != nil }) else { return }
        let raw: RawJSON
        do { raw = try RawJSON(encoding: value) } catch {
            lock.withLock { oversizedDrops += 1 }
            return
        }
        lock.withLock {
            let sequence = nextEventSequence
            nextEventSequence += 1
            sendLocked(.event(seq: sequence, name: event, value: raw))
        }
    }

    // MARK: - Helpers

    private func register(_ name: String, _ entry: CallEntry) {
        lock.withLock { entries[name] = entry }
    }

    static func decodeParams<Params: Decodable>(
        _ raw: RawJSON, as type: Params.Type, name: String
    ) -> Result<Params, RemoteError> {
        do { return .success(try raw.decode(as: Params.self)) } catch {
            return .failure(RemoteError(
                .badParams, "params of '\(name)' do not decode as \(Params.self): \(error); params: \(raw.text.prefix(500))"))
        }
    }

    static func encodeResult<Output: Encodable>(_ value: Output) -> Result<RawJSON, RemoteError> {
        do { return .success(try RawJSON(encoding: value)) } catch {
            return .failure(RemoteError(.badResult, "result of type \(Output.self) does not encode: \(error)"))
        }
    }
}
