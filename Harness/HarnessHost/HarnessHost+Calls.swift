import Foundation
import HarnessWire

/// The params of the built-in spy calls.
struct SpyCallParams: Decodable {
    let name: String
}

extension HarnessHost {
    /// The names of the built-in calls every host serves.
    enum BuiltIn {
        static let names = "__names"
        static let spyCalls = "__spy.calls"
        static let spyCount = "__spy.count"
        static let echo = "__echo"
        /// Sorted, as `__names` lists them.
        static let all = [echo, names, spyCalls, spyCount]
    }

    /// Handles one incoming message, on the event loop.
    func receive(_ message: BridgeMessage) {
        switch message {
        case .call(let id, let name, let params):
            serve(id: id, name: name, params: params)
        case .goodbye:
            state.withLock { $0.connection }?.close(reason: "the harness said goodbye")
        default:
            state.withLock { $0.connection }?.close(reason: "unexpected '\(message.typeName)' from the harness")
        }
    }

    private func serve(id: UInt64, name: String, params: RawJSON) {
        if let builtIn = builtIn(name: name, params: params) {
            reply(id: id, builtIn)
            return
        }
        guard let entry = state.withLock({ $0.entries[name] }) else {
            let available = state.withLock { $0.entries.keys.sorted() }
            reply(id: id, .failure(RemoteError(
                .unknownName, "the app exposes no probe or handler named '\(name)'", available: available)))
            return
        }
        switch entry.body {
        case .sync(let body):
            reply(id: id, body(params))
        case .async(let body):
            Task.detached { [self] in reply(id: id, await body(params)) }
        }
    }

    private func builtIn(name: String, params: RawJSON) -> Result<RawJSON, RemoteError>? {
        switch name {
        case BuiltIn.names:
            let (probes, handlers, spies) = state.withLock { state in
                (state.entries.filter { $0.value.kind == .probe }.keys.sorted(),
                 state.entries.filter { $0.value.kind == .handler }.keys.sorted(),
                 state.spyValues.keys.sorted())
            }
            return Self.encodeResult(["probes": probes, "handlers": handlers, "spies": spies, "builtIns": BuiltIn.all])
        case BuiltIn.spyCalls, BuiltIn.spyCount:
            let spyName: String
            switch Self.decodeParams(params, as: SpyCallParams.self, name: name) {
            case .success(let value): spyName = value.name
            case .failure(let error): return .failure(error)
            }
            let (values, available) = state.withLock { ($0.spyValues[spyName], $0.spyValues.keys.sorted()) }
            guard let values else {
                return .failure(RemoteError(.unknownName, "the app has no spy named '\(spyName)'", available: available))
            }
            if name == BuiltIn.spyCount { return Self.encodeResult(values.count) }
            var data = Data("[".utf8)
            for (index, value) in values.enumerated() {
                if index > 0 { data.append(UInt8(ascii: ",")) }
                data.append(value.data)
            }
            data.append(UInt8(ascii: "]"))
            // Each value was encoded by `Spy.record`, so the array is well-formed.
            return .success(RawJSON(trusted: data))
        case BuiltIn.echo:
            return .success(params)
        default:
            return nil
        }
    }

    private func reply(id: UInt64, _ result: Result<RawJSON, RemoteError>) {
        state.withLock { state in
            guard let connection = state.connection else { return }
            let frame: [UInt8]
            do {
                frame = try BridgeFrame.encode(.reply(id: id, result: result), maxFrameSize: maxFrameSize)
            } catch {
                let failure = RemoteError(.badResult, "the reply is larger than a frame: \(error)")
                frame = try! BridgeFrame.encode(.reply(id: id, result: .failure(failure)), maxFrameSize: maxFrameSize)
            }
            connection.send(frame)
        }
    }
}
