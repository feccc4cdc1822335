import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HarnessSystem
import Testing
import TerminalEmulator

/// Renders recordings of real programs (made by Scripts/record-parity-fixtures.sh) with tmux
/// and with our emulator, and requires the same text on every row of the screen and, for
/// the programs whose output scrolls, on every line of the transcript (see
/// TmuxParityTests+Transcript.swift).
///
/// tmux runs as a private server (`-S <socket in a private temp dir> -f /dev/null`) whose only pane replays
/// the recording through Scripts/tmux-replay-pane.py; that script signals a `wait-for`
/// channel once tmux has answered a status request sent after the recording, so the
/// capture happens exactly when tmux has parsed every byte (no sleep, no polling).
/// The suite is serialized: one tmux server at a time.
@Suite(.serialized) struct TmuxParityTests {
    static let tmuxPath: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/TerminalEmulatorTests/Fixtures")
    static let cols = 80, rows = 24
    /// tmux's `history-limit` for the replays: more than any recording's line count, so that
    /// tmux drops nothing (our terminal keeps 10,000 lines by default).
    static let historyLimit = 20_000

    /// Full-screen programs and printf output.
    static let screenFixtures = ["vim", "less", "vim-cjk", "less-cjk", "top", "top-interactive", "ls-color", "printf-colors", "dialog-box"]
    /// Line-oriented programs whose output scrolls far past one screen.
    static let scrollingFixtures = ["seq", "ls-usr-bin", "sgr-loop", "python-repl", "git-log", "cjk-scroll"]

    @Test(
        .enabled(if: tmuxPath != nil, "tmux is not installed: the parity test needs it as the reference emulator"),
        arguments: screenFixtures + scrollingFixtures
    )
    func sameTextAsTmux(fixture: String) async throws {
        let file = Self.fixtures.appendingPathComponent("\(fixture).bytes")
        let bytes = try Data(contentsOf: file)
        // tmux, python and waitpid block for a while: on a thread of their own, so the few
        // threads of Swift's cooperative pool stay free for the other tests running meanwhile.
        let path = file.path
        let theirs = try await Self.onOwnThread { try Self.renderWithTmux(file: path, capture: .screen) }
        let terminal = Terminal(cols: Self.cols, rows: Self.rows)
        bytes.withUnsafeBytes { terminal.feed($0) }
        let ours = terminal.snapshot().lines

        let expected = theirs.map(Self.normalised)
        let actual = ours.map(Self.normalised)
        #expect(actual.count == expected.count)
        for row in 0..<min(actual.count, expected.count) where actual[row] != expected[row] {
            Issue.record("""
                \(fixture): row \(row) differs
                  tmux: \(expected[row].debugDescription)
                  ours: \(actual[row].debugDescription)
                our screen:
                \(terminal.snapshot().framed())
                """)
        }
    }

    /// Runs blocking work on a new thread and awaits its result.
    static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.start()
        }
    }

    /// tmux prints DEC line-drawing characters as the ASCII letters that select them;
    /// both sides are mapped to those letters, then trailing blanks trimmed.
    static func normalised(_ line: String) -> String {
        var out = ""
        for scalar in line.unicodeScalars {
            if let letter = lineDrawingLetters[scalar.value] {
                out.unicodeScalars.append(letter)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        while out.hasSuffix(" ") { out.removeLast() }
        return out
    }

    static let lineDrawingLetters: [UInt32: Unicode.Scalar] = [
        0x25C6: "`", 0x2592: "a", 0x00B0: "f", 0x00B1: "g", 0x2518: "j", 0x2510: "k", 0x250C: "l",
        0x2514: "m", 0x253C: "n", 0x23BA: "o", 0x23BB: "p", 0x2500: "q", 0x23BC: "r", 0x23BD: "s",
        0x251C: "t", 0x2524: "u", 0x2534: "v", 0x252C: "w", 0x2502: "x", 0x2264: "y", 0x2265: "z",
        0x03C0: "{", 0x2260: "|", 0x00B7: "~",
    ]

    // MARK: - tmux

    struct TmuxFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// What to capture from the pane once the recording is replayed.
    enum Capture {
        /// The screen: `capture-pane -p`.
        case screen
        /// The history and then the screen: `capture-pane -p -S -`.
        case history

        var arguments: [String] {
            switch self {
            case .screen: ["capture-pane", "-p"]
            case .history: ["capture-pane", "-p", "-S", "-"]
            }
        }
    }

    /// The pane's text as `capture-pane` prints it, one string per line.
    static func renderWithTmux(file: String, capture: Capture) throws -> [String] {
        guard let tmux = tmuxPath else { throw TmuxFailure(description: "tmux not installed") }
        // A private 0700 directory holds the server's socket (tmux leaves `-L` sockets behind
        // in /tmp/tmux-UID after kill-server); it is removed with everything in it.
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("emulator-parity-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("tmux.sock").path
        let channel = "replayed"
        let replay = repositoryRoot.appendingPathComponent("Scripts/tmux-replay-pane.py").path
        defer { _ = try? run(tmux, ["-S", socket, "kill-server"]) }

        let started = try run(tmux, [
            "-S", socket, "-f", "/dev/null", "start-server", ";",
            "set-option", "-g", "status", "off", ";",
            "set-option", "-g", "history-limit", "\(historyLimit)", ";",
            "new-session", "-d", "-x", "\(cols)", "-y", "\(rows)",
            "python3 '\(replay)' '\(file)' '\(socket)' '\(channel)'",
        ])
        guard started.status == 0 else {
            throw TmuxFailure(description: "tmux new-session failed (\(started.status)): \(started.output)")
        }
        // The script signals once tmux has parsed everything, or when it fails: the limit only
        // catches a hang (30 s was reached once by a loaded machine's replay of `seq`).
        let waited = try run("/usr/bin/timeout", ["300", tmux, "-S", socket, "wait-for", channel])
        guard waited.status == 0 else {
            throw TmuxFailure(description: "tmux wait-for \(channel) failed (\(waited.status)): \(waited.output)")
        }
        let captured = try run(tmux, ["-S", socket] + capture.arguments)
        guard captured.status == 0 else {
            throw TmuxFailure(description: "tmux capture-pane failed (\(captured.status)): \(captured.output)")
        }
        var lines = captured.output.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Runs a program to completion; returns its exit status and stdout+stderr.
    ///
    /// Uses the harness's spawn rather than Foundation's `Process`: the tmux server forked by
    /// `start-server` inherits the child's descriptors, which keeps `Process` from ever
    /// noticing the exit. The harness's spawn closes every descriptor but 0-2 in the child
    /// (the server lives on: one it inherited, such as a script another test is writing
    /// without O_CLOEXEC, would stay open with it and make that script fail with ETXTBSY), and
    /// gives it an empty signal mask and default handlers, so that `kill-server`'s SIGHUP
    /// really ends the pane. A command that could hang runs under `timeout(1)`.
    static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("tmux-parity-\(UUID().uuidString).out").path
        defer { unlink(outputPath) }
        var environment = ProcessInfo.processInfo.environment
        environment["LC_ALL"] = "C.UTF-8"
        environment["LANG"] = "C.UTF-8"
        environment.removeValue(forKey: "TMUX")
        do {
            let input = try Posix.openForReading("/dev/null")
            defer { Posix.closeIgnoringErrors(input) }
            let output = try Posix.createForWriting(outputPath)
            defer { Posix.closeIgnoringErrors(output) }
            let pid = try Posix.spawnWithPipes(
                path: path, arguments: [path] + arguments, environment: environment.map { "\($0.key)=\($0.value)" },
                workingDirectory: nil, standardInput: input, standardOutput: output, standardError: output)
            let status = try Posix.waitForTermination(pid)
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            switch status {
            case .exited(let code): return (code, text)
            case .signaled(let signal): return (128 + signal, text)
            }
        } catch {
            throw TmuxFailure(description: "cannot run \(path): \(error)")
        }
    }
}
