import Foundation
import HarnessSystem
import Stubs

/// `stub-server --mappings FILE.json [--files DIR] [--host 127.0.0.1] [--port 0] [--no-admin]
/// [--request-timeout SECONDS] [--idle-timeout SECONDS] [--allow-remote]`
///
/// Validates the mapping file, starts serving it (with the admin API unless `--no-admin`), prints
/// the base URL as the first line of stdout once it accepts connections, and stops cleanly
/// (exit 0) on SIGINT/SIGTERM.
struct StubServerCommand {
    var mappings: URL
    var files: URL?
    var host = StubHost.loopbackIPv4
    var port: UInt16 = 0
    var admin = true
    var allowRemote = false
    var requestTimeout: Duration = .seconds(30)
    var idleTimeout: Duration = .seconds(300)

    static let usage = """
        usage: stub-server --mappings FILE.json [--files DIR] [--host 127.0.0.1] [--port 0]
                           [--no-admin] [--request-timeout SECONDS] [--idle-timeout SECONDS]
                           [--allow-remote]

          --mappings FILE          the stubs to serve (format: docs/STUBS.md)
          --files DIR              the folder bodyFile paths are relative to and must stay inside
                                   (default: the mapping file's folder)
          --host ADDRESS           numeric loopback address to listen on (default 127.0.0.1; ::1 for IPv6)
          --port PORT              port to listen on (default 0: a free port)
          --no-admin               no admin API: /__admin/ paths are ordinary requests
          --request-timeout SECS   how long a client may take to send a request, from its first
                                   byte (default 30)
          --idle-timeout SECS      how long a connection may stay open without a request
                                   (default 300)
          --allow-remote           allow a --host that is not loopback (other machines can then
                                   reach the stubs and the files they serve)

        Prints the base URL (http://HOST:PORT) as the first line of stdout once it accepts
        connections. The admin API is under /__admin/. SIGINT or SIGTERM stop it with exit 0.
        """

    /// Parses the arguments; throws a usage message.
    static func parse(_ arguments: [String]) throws -> StubServerCommand {
        var mappings: URL?
        var command = StubServerCommand(mappings: URL(fileURLWithPath: "/"))
        var index = 0
        func value(_ flag: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[index]
        }
        func seconds(_ flag: String, _ text: String) throws -> Duration {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw UsageError(message: "\(flag) expects seconds, more than 0 and at most 86400, got \(text)")
            }
            return .milliseconds(max(1, Int64((seconds * 1000).rounded())))
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--mappings": mappings = URL(fileURLWithPath: try value(argument))
            case "--files": command.files = URL(fileURLWithPath: try value(argument))
            case "--host":
                let text = try value(argument)
                do { command.host = try StubHost(text) } catch { throw UsageError(message: "\(error)") }
            case "--port":
                let text = try value(argument)
                guard let number = UInt16(text) else { throw UsageError(message: "--port expects 0-65535, got \(text)") }
                command.port = number
            case "--no-admin": command.admin = false
            case "--allow-remote": command.allowRemote = true
            case "--request-timeout": command.requestTimeout = try seconds(argument, value(argument))
            case "--idle-timeout": command.idleTimeout = try seconds(argument, value(argument))
            case "-h", "--help":
                throw UsageError(message: nil)
            default:
                throw UsageError(message: "unknown argument \(argument)")
            }
            index += 1
        }
        guard let mappings else { throw UsageError(message: "--mappings FILE.json is required") }
        command.mappings = mappings
        if let files = command.files, Posix.fileStatus(ofPath: files.path)?.isDirectory != true {
            throw UsageError(message: "--files \(files.path): no such folder")
        }
        if !command.host.isLoopback && !command.allowRemote {
            throw UsageError(message: "refusing to listen on \(command.host): it is not a loopback address, so other "
                + "machines could use the stubs and read the files they serve; pass --allow-remote to do it anyway")
        }
        return command
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
    mappings = try StubMappingFile.load(command.mappings, filesDirectory: command.files)
} catch {
    writeError("stub-server: invalid mapping file\n\(error)")
    exit(1)
}

Posix.ignoreSignal(SIGPIPE)

if command.allowRemote && !command.host.isLoopback {
    writeError("stub-server: warning: listening on \(command.host), which is not loopback (--allow-remote): other "
        + "machines can use the stubs and read their body files"
        + (command.admin ? ", and the admin API trusts the Host header they send; add --no-admin" : ""))
}

let server: StubServer
do {
    var options = StubServer.Options(
        enablesAdminAPI: command.admin, filesDirectory: command.files ?? command.mappings.deletingLastPathComponent(),
        requestTimeout: command.requestTimeout, idleTimeout: command.idleTimeout)
    options.allowsRemoteClients = command.allowRemote
    server = try StubServer(host: command.host, port: command.port, options: options)
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
