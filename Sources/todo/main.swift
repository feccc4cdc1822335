import Dispatch
import Foundation
import TodoCore

let environment = ProcessInfo.processInfo.environment
let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

let commandLine: TodoCommandLine
do {
    commandLine = try TodoCommandLine.parse(arguments)
} catch {
    fail("todo: \(error)\n\n\(TodoCommandLine.usage)", status: 64)
}

let api = TodoAPI(baseURL: commandLine.apiURL ?? TodoAPI.defaultBaseURL)

switch commandLine.command {
case .help:
    print(TodoCommandLine.usage)
case .version:
    print("todo \(TodoCommandLine.version)")
case .list(let json):
    Task {
        exit(await ListCommand.run(api: api, json: json))
    }
    dispatchMain()
case .interactive:
    guard TerminalDevice.isInteractive() else {
        fail("todo: not a terminal: the list needs an interactive terminal; use `todo list` in scripts and pipes", status: 1)
    }
    let store = TodoStore(directory: TodoCommandLine.storageDirectory(storage: commandLine.storage, environment: environment))
    let app = TodoApp(api: api, store: store, color: TodoCommandLine.usesColor(environment: environment))
    app.run()
}
