import Foundation
import HarnessCore
import HarnessSystem
import HarnessWire

extension FlowRun {
    /// `launch`: starts the stub server when the flow uses one, then the app through
    /// ``TerminalApp`` with the flow's setup lines.
    package func launch() async throws {
        let launch = try prepareLaunch()
        do {
            app = try await TerminalApp.launchApp(launch)
        } catch let failure as FlowStepFailure {
            throw failure
        } catch let error as BridgeError {
            // The program started; its bridge did not come up (it exited, never connected,
            // was refused): say that, not that it could not be launched.
            throw bridgeLaunchFailure(error, executable: launch.executable, carrier: launch.carrier)
        } catch {
            throw FlowStepFailure("could not launch \(launch.executable)", details: "\(error)", showsScreen: false)
        }
    }

    /// What `launch` and `launch pipes` share: the program resolved, its environment, seeds,
    /// clock and launch protocol from the setup lines, and the stub server started when the
    /// flow uses one.
    package func prepareLaunch() throws -> AppLaunch {
        guard let written = script.app else { throw FlowStepFailure("the flow has no app line", showsScreen: false) }
        let variables = options.environment
        let executable: String
        var arguments: [String] = []
        do {
            var app = written
            app.written = try FlowVariables.expand(written.written, environment: variables)
            // The launch values (`${HARNESS_NETWORK}`, `${HARNESS_STORAGE}`...) are known at
            // launch: checked now with stand-ins, expanded then.
            let standIns = Dictionary(uniqueKeysWithValues: LaunchVariable.all.map { ($0, "") })
            for argument in written.arguments {
                arguments.append(try FlowVariables.expand(argument, environment: variables.merging(standIns) { _, new in new }))
            }
            executable = try app.resolveExecutable(searchPath: variables["PATH"] ?? "/usr/bin:/bin")
        } catch let error as FlowVariableError {
            throw FlowStepFailure("app: \(error)", showsScreen: false)
        } catch FlowAppResolutionError.notFound(let name, _) {
            throw FlowSkip(reason: "\(name) is not installed (not found in PATH)")
        } catch {
            throw FlowStepFailure("\(error)", showsScreen: false)
        }

        var launch = AppLaunch(executable: executable, arguments: arguments)
        let writtenArguments = written.arguments
        launch.argumentsFromLaunchValues = { values in
            do {
                return try writtenArguments.map { try FlowVariables.expand($0, environment: variables.merging(values) { _, new in new }) }
            } catch {
                throw FlowStepFailure("app: \(error)", showsScreen: false)
            }
        }
        launch.launchProtocol = FlowExecutor.launchProtocol(for: script)
        launch.size = script.initialSize
        launch.frozenClock = script.frozenClock
        launch.initialState = script.initialState
        launch.values = script.launchValues
        launch.carrier = script.carrier
        launch.defaultTimeout = timeout
        launch.readyTimeout = max(timeout, .seconds(10))
        launch.workingDirectory = script.directory
        launch.inheritedEnvironment = variables
        for (name, value) in script.environment {
            do {
                launch.environment[name] = try FlowVariables.expand(value, environment: variables)
            } catch {
                throw FlowStepFailure("env \(name): \(error)", showsScreen: false)
            }
        }
        for seed in script.seeds {
            do {
                launch.seeds[seed.name] = try Data(contentsOf: URL(fileURLWithPath: seed.file.absolutePath))
            } catch {
                throw FlowStepFailure("seed \(seed.file.written): cannot read \(seed.file.absolutePath): \(error.localizedDescription)",
                                      showsScreen: false)
            }
        }
        if script.usesStubServer {
            guard let start = options.stubServers else {
                throw FlowStepFailure("this runner starts no stub server (FlowExecutor.Options.stubServers)", showsScreen: false)
            }
            let server: any RequestJournal
            do {
                server = try start(script.stubs)
            } catch {
                throw FlowStepFailure("\(error)", showsScreen: false)
            }
            stubServer = server
            launch.network = server.baseURL
        }
        // A matrix case's size, theme and colour win over the flow's own lines.
        return flow.matrixCase?.applied(to: launch) ?? launch
    }

    /// The bytes of a file a flow refers to.
    package static func read(_ file: FlowFileReference) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file.absolutePath))
        } catch {
            throw FlowStepFailure("cannot read \(file.written) (\(file.absolutePath)): \(error.localizedDescription)",
                                  showsScreen: false)
        }
    }
}
