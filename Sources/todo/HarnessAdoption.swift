import Foundation
import HarnessHost
import TodoCore

/// What the app exposes to the test harness over the bridge (inert without the harness):
///
/// - spy `database.save`: every list the app saves, recorded before it is written;
/// - probe `state`: the current ``TodoListState`` as JSON;
/// - event `state`: the status name (`idle`, `loading`, `loaded`, `error`) on every change,
///   starting with the status at launch;
/// - handler `given`: sets the state directly, from a sample name (`"error"`) or a full state
///   (`{"status": "error", "reason": "..."}`); answers the new status name.
enum HarnessAdoption {
    static func expose(_ app: TodoApp, store: TodoStore, on host: HarnessHost) {
        let saves = host.spy("database.save", of: [Todo].self)
        app.save = { todos in
            saves.record(todos)
            try store.save(todos)
        }
        host.probe("state") { app.currentState() }
        host.handle("given", as: GivenState.self) { given in
            app.setState(given.state)
            return given.state.statusName
        }
        app.onTransition = { state in host.publish("state", state.statusName) }
        host.publish("state", app.currentState().statusName)
        // Ready only once the terminal is raw and the first screen drawn: the switch to raw
        // mode (TCSAFLUSH) discards input typed before it, so a test's first key could be lost.
        app.onReady = { host.ready() }
    }
}

/// The parameter of `given`: a sample state's name, or a whole state.
struct GivenState: Decodable {
    var state: TodoListState

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let name = try? container.decode(String.self) {
            guard let sample = TodoListState.sample(named: name) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "unknown sample state \"\(name)\"; known: \(TodoListState.sampleNames.joined(separator: ", "))"
                )
            }
            state = sample
        } else {
            state = try container.decode(TodoListState.self)
        }
    }
}
