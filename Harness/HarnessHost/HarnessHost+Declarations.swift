import Foundation
import HarnessWire

extension HarnessHost {
    // MARK: - Spies

    /// Declares a spy; tests read its values with `__spy.calls` / `AppBridge.spy`.
    public func spy<Value: Encodable>(_ name: String, of type: Value.Type = Value.self) -> Spy<Value> {
        state.withLock { state in
            if state.spyValues[name] == nil { state.spyValues[name] = [] }
        }
        return Spy(name: name, host: self)
    }

    func record<Value: Encodable>(spy name: String, value: Value) {
        let raw: RawJSON
        do { raw = try RawJSON(encoding: value) } catch {
            state.withLock { $0.oversizedDrops += 1 }
            return
        }
        state.withLock { state in
            let index = UInt64(state.spyValues[name, default: []].count)
            state.spyValues[name, default: []].append(raw)
            send(.record(spy: name, index: index, value: raw), &state)
        }
    }

    func spyCount(_ name: String) -> Int {
        state.withLock { $0.spyValues[name]?.count ?? 0 }
    }

    // MARK: - Probes and handlers

    /// Declares a probe: a call named `name` that returns `read()`.
    ///
    /// `read` runs on the thread serving the bridge (the event loop's): it must be thread-safe
    /// and must not block.
    public func probe<Value: Encodable & SendableMetatype>(_ name: String, _ read: @escaping @Sendable () throws -> Value) {
        register(name, CallEntry(kind: .probe, body: .sync { _ in
            do { return Self.encodeResult(try read()) } catch {
                return .failure(RemoteError(.handlerFailed, "probe '\(name)' threw: \(error)"))
            }
        }))
    }

    /// Declares a handler: a call named `name` whose params decode as `Params`.
    ///
    /// `body` runs on the thread serving the bridge (the event loop's), one call at a time: it
    /// must be thread-safe and must not block.
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
        guard state.withLock({ $0.connection != nil }) else { return }
        let raw: RawJSON
        do { raw = try RawJSON(encoding: value) } catch {
            state.withLock { $0.oversizedDrops += 1 }
            return
        }
        state.withLock { state in
            let sequence = state.nextEventSequence
            state.nextEventSequence += 1
            send(.event(seq: sequence, name: event, value: raw), &state)
        }
    }

    // MARK: - Helpers

    private func register(_ name: String, _ entry: CallEntry) {
        state.withLock { $0.entries[name] = entry }
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
