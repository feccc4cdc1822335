import Dispatch
import Foundation
import HarnessHost
import TodoCore

let environment = ProcessInfo.processInfo.environment

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

// The harness's launch arguments come first and are removed; without them the host is inert.
let harness: HarnessLaunch
do {
    harness = try HarnessHost.start(appName: "todo")
} catch {
    fail("todo: \(error)", status: 64)
}
if let bridgeError = harness.bridgeError {
    FileHandle.standardError.write(Data("todo: the harness bridge is unavailable: \(bridgeError)\n".utf8))
}
let launchOptions = harness.options

let commandLine: TodoCommandLine
do {
    commandLine = try TodoCommandLine.parse(Array(harness.remainingArguments.dropFirst()))
} catch {
    fail("todo: \(error)\n\n\(TodoCommandLine.usage)", status: 64)
}

// `--harness-set api.timeout=SECONDS` shortens the request timeout for tests of a hanging server.
let requestTimeout = launchOptions?.values["api.timeout"].flatMap(TimeInterval.init) ?? 10
let api = TodoAPI(
    baseURL: commandLine.apiURL ?? launchOptions?.networkBaseURL ?? TodoAPI.defaultBaseURL,
    timeout: requestTimeout
)

switch commandLine.command {
case .help:
    print(TodoCommandLine.usage)
case .version:
    print("todo \(TodoCommandLine.version)")
case .list(let json):
    Task {
        // _exit: see TodoApp.finish; ListCommand writes its output unbuffered.
        _exit(await ListCommand.run(api: api, json: json))
    }
    // The task runs on the main actor (top-level code's): the main queue must be served.
    dispatchMain()
case .interactive:
    guard TerminalDevice.isInteractive() else {
        fail("todo: not a terminal: the list needs an interactive terminal; use `todo list` in scripts and pipes", status: 1)
    }
    var initialState = TodoListState()
    if let name = launchOptions?.initialState {
        guard let sample = TodoListState.sample(named: name) else {
            fail("todo: unknown initial state \"\(name)\"; known: \(TodoListState.sampleNames.joined(separator: ", "))", status: 64)
        }
        initialState = sample
    }
    let storage = commandLine.storage ?? launchOptions?.storageDirectory
    let store = TodoStore(directory: TodoCommandLine.storageDirectory(storage: storage, environment: environment))
    let frozenClock = launchOptions?.frozenClock
    let app = TodoApp(
        api: api, store: store, color: TodoCommandLine.usesColor(environment: environment),
        initialState: initialState, clock: { frozenClock ?? Date() }
    )
    if let host = harness.host {
        HarnessAdoption.expose(app, store: store, on: host)
    }
    app.run()
}
