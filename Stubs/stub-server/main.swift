import Foundation
import HarnessSystem
import Stubs

/// `stub-server --mappings FILE.json [--host 127.0.0.1] [--port 0]`
///
/// Validates the mapping file, starts serving it with the admin API, prints the base URL as the
/// first line of stdout once it accepts connections, and stops cleanly (exit 0) on SIGINT/SIGTERM.
struct StubServerCommand {
    var mappings: URL
    var host = StubHost.loopbackIPv4
    var port: UInt16 = 0

    static let usage = """
        usage: stub-server --mappings FILE.json [--host 127.0.0.1] [--port 0]

          --mappings FILE   the stubs to serve (format: docs/STUBS.md)
          --host ADDRESS    numeric address to listen on (default 127.0.0.1; ::1 for IPv6)
          --port PORT       port to listen on (default 0: a free port)

        Prints the base URL (http://HOST:PORT) as the first line of stdout once it accepts
        connections. The admin API is under /__admin/. SIGINT or SIGTERM stop it with exit 0.
        """

    /// Parses the arguments; throws a usage message.
    static func parse(_ arguments: [String]) throws -> StubServerCommand {
        var mappings: URL?
        var host = StubHost.loopbackIPv4
        var port: UInt16 = 0
        var index = 0
        func value(_ flag: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--mappings": mappings = URL(fileURLWithPath: try value(argument))
            case "--host":
                let text = try value(argument)
                do { host = try StubHost(text) } catch { throw UsageError(message: "\(error)") }
            case "--port":
                let text = try value(argument)
                guard let number = UInt16(text) else { throw UsageError(message: "--port expects 0-65535, got \(text)") }
                port = number
            case "-h", "--help":
                throw UsageError(message: nil)
            default:
                throw UsageError(message: "unknown argument \(argument)")
            }
            index += 1
        }
        guard let mappings else { throw UsageError(message: "--mappings FILE.json is required") }
        return StubServerCommand(mappings: mappings, host: host, port: port)
    }

    struct UsageError: Error {
        let message: String?
    }
}

func writeError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

// SIGINT and SIGTERM: a plain handler, installed before anything is printed, writes one byte to
// a pipe that the main thread waits on (the server itself runs on the process's event loop).
// Installing it is synchronous (a dispatch signal source registers asynchronously, and SIG_IGN
// in the meantime would drop an early signal), and the signals are unblocked too because a
// parent may have spawned us with them blocked.
let signalPipe: Int32
do {
    signalPipe = try Posix.installSignalPipe(for: [SIGINT, SIGTERM])
} catch {
    writeError("stub-server: \(error)")
    exit(1)
}

let command: StubServerCommand
do {
    command = try StubServerCommand.parse(Array(CommandLine.arguments.dropFirst()))
} catch let error as StubServerCommand.UsageError {
    if let message = error.message {
        writeError("stub-server: \(message)\n\n\(StubServerCommand.usage)")
        exit(2)
    }
    print(StubServerCommand.usage)
    exit(0)
}

let mappings: [StubMapping]
do {
    mappings = try StubMappingFile.load(command.mappings)
} catch {
    writeError("stub-server: invalid mapping file\n\(error)")
    exit(1)
}

Posix.ignoreSignal(SIGPIPE)

let server: StubServer
do {
    server = try StubServer(
        host: command.host, port: command.port,
        options: .init(enablesAdminAPI: true, mappingBaseDirectory: command.mappings.deletingLastPathComponent())
    )
} catch {
    writeError("stub-server: \(error)")
    exit(1)
}
server.loadMappings(mappings)

// Unbuffered, so a script reading the first line sees it at once.
FileHandle.standardOutput.write(Data((server.baseURL.absoluteString + "\n").utf8))
writeError("stub-server: serving \(mappings.count) mapping(s) from \(command.mappings.path) at \(server.baseURL.absoluteString)")

// The main thread has nothing else to do: it waits for the signal, then stops serving.
Posix.waitForByte(signalPipe)
server.stop()
exit(0)
