import Foundation
import HarnessSteps

extension FlowScript {
    /// The files a run of the flow reads, as absolute paths: the flow file itself (`file`
    /// resolved against `directory` when relative), the files its lines name (stub bodies,
    /// seeds, expected JSON, standard input), and the program when it resolves (its `app`
    /// path with `environment`'s variables, or found in its `PATH`). `harness run --watch`
    /// runs the flow again when one of them changes.
    public func dependencies(flowPath: String, environment: [String: String]) -> [String] {
        var paths = [flowPath]
        paths += steps.flatMap { $0.command.written.files.map(\.absolutePath) }
        if var app {
            if let expanded = try? FlowVariables.expand(app.written, environment: environment) { app.written = expanded }
            if let program = try? app.resolveExecutable(searchPath: environment["PATH"] ?? "/usr/bin:/bin") {
                paths.append(URL(fileURLWithPath: program).resolvingSymlinksInPath().path)
            }
        }
        return paths
    }
}
