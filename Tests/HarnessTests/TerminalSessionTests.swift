import Foundation
import TestSupport
import Testing
import Harness
@testable import HarnessCore
import TerminalEmulator
import HarnessSystem

@Suite(.serialized) struct TerminalSessionTests {
    @Test func shellPromptEchoAndExit() async throws {
        let configuration = TerminalSession.Configuration(
            executable: "sh", environment: testEnvironment, defaultTimeout: mustSucceedTimeout)
        try await TerminalSession.withSession(configuration) { session in
            try await session.waitFor(text: "$ ")
            try session.type("echo hel''lo\r")
            let screen = try await session.waitFor(regex: "^hello$")
            #expect(screen.lines.contains("$ echo hel''lo"))
            try session.type("exit 7\r")
            #expect(try await session.waitForExit() == .exited(7))
            #expect(session.exitStatus == .exited(7))
        }
    }

    @Test func termDefaultsToXterm256ColorAndWorkingDirectoryIsApplied() async throws {
        let directory = FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path
        var configuration = shell("echo \"term=$TERM\"; pwd")
        configuration.workingDirectory = directory
        let session = try TerminalSession.launch(configuration)
        defer { session.terminate() }
        #expect(try await session.waitForExit() == .exited(0))
        #expect(session.screen.lines.prefix(2) == ["term=xterm-256color", directory])
    }

    @Test func sttySizeAfterLaunchAndAfterResize() async throws {
        let session = try TerminalSession.launch(shell("stty size; read x; stty size; read y", size: TerminalSize(cols: 100, rows: 30)))
        defer { session.terminate() }
        try await session.waitFor(text: "30 100")
        try await session.resize(cols: 120, rows: 40)
        #expect(session.size == TerminalSize(cols: 120, rows: 40))
        #expect(session.screen.cols == 120 && session.screen.rows == 40)
        try session.press(.enter)
        try await session.waitFor(text: "40 120")
        try session.press(.enter)
        #expect(try await session.waitForExit() == .exited(0))
    }

    @Test(.enabled(if: isInstalled("python3"))) func resizeSendsSigwinchToTheProgram() async throws {
        let script = #"""
            import os, signal, sys
            # os.write, not print: the signal may arrive while print("ready") is still flushing.
            signal.signal(signal.SIGWINCH, lambda *_: os.write(1, b"winch %dx%d\r\n" % tuple(os.get_terminal_size())))
            print("ready")
            sys.stdin.readline()
            """#
        let session = try TerminalSession.launch(.init(
            executable: "python3", arguments: ["-c", script], environment: testEnvironment, defaultTimeout: mustSucceedTimeout))
        defer { session.terminate() }
        try await session.waitFor(text: "ready")
        try await session.resize(cols: 91, rows: 17)
        try await session.waitFor(text: "winch 91x17")
    }

    @Test func catEchoesTypedTextIncludingWideCharacters() async throws {
        let session = try TerminalSession.launch(.init(executable: "cat", environment: testEnvironment, defaultTimeout: mustSucceedTimeout))
        defer { session.terminate() }
        try session.type("hello 世界")
        let typed = try await session.waitFor(text: "hello 世界")
        #expect(typed.line(0) == "hello 世界")
        #expect(typed.cursor.col == 10)  // two wide characters take two cells each
        try session.press(.enter)
        try await session.waitFor("cat's copy on row 1") { $0.line(1) == "hello 世界" }
        try session.press(.ctrl("d"))
        #expect(try await session.waitForExit() == .exited(0))
    }

    @Test func programKilledBySignalIsReportedAsSignaled() async throws {
        let session = try TerminalSession.launch(shell("kill -9 $$"))
        defer { session.terminate() }
        let status = try await session.waitForExit()
        #expect(status == .signaled(9))
        #expect(status.description == "killed by signal 9 (SIGKILL)")
    }

    @Test func terminateEndsTheWholeProcessGroup() async throws {
        // A background job and a foreground job in the program's group.
        let session = try TerminalSession.launch(shell("sleep 1000 & echo started; sleep 1000"))
        try await session.waitFor(text: "started")
        let pid = session.pid
        #expect(Posix.livingMembers(ofProcessGroup: pid).count >= 2)  // sh and its jobs
        let status = session.terminate()
        #expect(status == .signaled(SIGHUP))
        // kill(-pgid, 0) may still find the background job as a zombie until init reaps it
        // (it is not our child), so look for processes that still run.
        #expect(Posix.livingMembers(ofProcessGroup: pid).isEmpty, "a process of the group is still running")
        #expect(session.terminate() == status, "terminate is idempotent")
        // The child was reaped: no zombie is left.
        var raw: Int32 = 0
        #expect(waitpid(pid, &raw, WNOHANG) == -1 && errno == ECHILD)
        #expect(session.core.isFullyReleased)
    }

    @Test func terminateKillsAProgramIgnoringHangupAndTerm() async throws {
        let session = try TerminalSession.launch(shell("trap '' HUP TERM; echo ready; exec sleep 1000"))
        try await session.waitFor(text: "ready")
        let pid = session.pid
        #expect(session.terminate(grace: .milliseconds(100)) == .signaled(SIGKILL))
        #expect(!Posix.exists(-pid), "the process group still exists")
    }

    @Test func droppingTheSessionTerminatesTheProgram() async throws {
        var pid: Int32 = 0
        do {
            let session = try TerminalSession.launch(shell("echo up; exec sleep 1000"))
            try await session.waitFor(text: "up")
            pid = session.pid
        }
        #expect(pid > 0)
        #expect(!Posix.exists(-pid))
    }

    @Test func withSessionTerminatesWhenTheBodyThrows() async throws {
        struct Expected: Error {}
        let pid = PIDBox()
        let error = await caughtError {
            try await TerminalSession.withSession(shell("echo up; exec sleep 1000")) { session in
                try await session.waitFor(text: "up")
                pid.value = session.pid
                throw Expected()
            }
        }
        #expect(error is Expected)
        #expect(pid.value > 0)
        #expect(!Posix.exists(-pid.value))
    }

    @Test func deviceStatusReportIsAnswered() async throws {
        // Raw mode, ask for the cursor position, read the 6-byte answer "ESC [ 1 ; 1 R".
        let script = #"stty raw -echo; printf '\033[6n'; r=$(dd bs=1 count=6 2>/dev/null); stty sane; printf '\r\nreply:%s\n' "$r" | tr '\033' E"#
        let session = try TerminalSession.launch(shell(script))
        defer { session.terminate() }
        #expect(try await session.waitForExit() == .exited(0))
        #expect(session.screen.contains("reply:E[1;1R"))
        #expect(session.recording.events.contains { $0.kind == .input && $0.bytes == Array("\u{1b}[1;1R".utf8) })
    }

    @Test func arrowKeysFollowApplicationCursorMode() async throws {
        let script = #"stty raw -echo; printf '\033[?1hready\r\n'; r=$(dd bs=1 count=6 2>/dev/null); stty sane; printf 'got:%s\n' "$r" | tr '\033' E"#
        let session = try TerminalSession.launch(shell(script))
        defer { session.terminate() }
        try await session.waitFor(text: "ready")
        #expect(session.modes.applicationCursorKeys)
        try session.press(.up, .home)
        #expect(try await session.waitForExit() == .exited(0))
        #expect(session.screen.contains("got:EOAEOH"))
    }

    @Test func pasteUsesBracketsWhenTheProgramEnabledThem() async throws {
        let script = #"stty raw -echo; printf '\033[?2004hready\r\n'; r=$(dd bs=1 count=15 2>/dev/null); stty sane; printf 'got:%s\n' "$r" | tr '\033\r' ER"#
        let session = try TerminalSession.launch(shell(script))
        defer { session.terminate() }
        try await session.waitFor(text: "ready")
        #expect(session.modes.bracketedPaste)
        try session.paste("a\nb")
        #expect(try await session.waitForExit() == .exited(0))
        #expect(session.screen.contains("got:E[200~aRbE[201~"))
    }

    @Test func missingBinaryFailsBeforeSpawning() throws {
        #expect(throws: TerminalSessionError.self) {
            try TerminalSession.launch(.init(executable: "/nonexistent/directory/program"))
        }
        do {
            _ = try TerminalSession.launch(.init(executable: "/nonexistent/directory/program"))
        } catch TerminalSessionError.executableNotFound(let path) {
            #expect(path == "/nonexistent/directory/program")
        }
        do {
            _ = try TerminalSession.launch(.init(executable: "no-such-program-\(getpid())", environment: testEnvironment))
            Issue.record("launched a program that does not exist")
        } catch TerminalSessionError.executableNotFound(let name) {
            #expect(name == "no-such-program-\(getpid())")
        }
    }

    @Test func nonExecutableFileAndDirectoryFailBeforeSpawning() throws {
        let directory = try TemporaryDirectory(prefix: "harness").url
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("not-executable").path
        _ = FileManager.default.createFile(atPath: file, contents: Data("echo hi\n".utf8), attributes: [.posixPermissions: 0o644])
        for path in [file, directory.path] {
            do {
                _ = try TerminalSession.launch(.init(executable: path))
                Issue.record("launched \(path)")
            } catch TerminalSessionError.notExecutable(let reported) {
                #expect(reported == path)
                #expect("\(TerminalSessionError.notExecutable(reported))".contains(path))
            }
        }
    }

    @Test func execFailureInTheChildIsReported() throws {
        let directory = try TemporaryDirectory(prefix: "harness").url
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("garbage").path
        // Written through a close-on-exec descriptor, so programs other tests spawn meanwhile
        // never inherit it: an executable still open for writing somewhere fails with ETXTBSY.
        let fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        #expect(fd >= 0)
        let bytes: [UInt8] = [0x7f, 0x45, 0x4c, 0x46, 0, 0, 0]
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)
        // A child forked by another test in the instant our descriptor was open holds a copy
        // until it closes its descriptors: that transient ETXTBSY is retried, nothing else.
        for attempt in 1 ... 50 {
            do {
                _ = try TerminalSession.launch(.init(executable: file))
                Issue.record("executed a file that is not a program")
                return
            } catch TerminalSessionError.launchFailed(let path, let error) where error.errno == ETXTBSY && attempt < 50 {
                #expect(path == file)
                continue
            } catch TerminalSessionError.launchFailed(let path, let error) {
                #expect(path == file)
                #expect(error.operation == "execve (in the child)")
                #expect(error.errno == ENOEXEC)
                return
            }
        }
    }
}

/// A value a test body can set from inside an escaping async closure.
final class PIDBox: Sendable {
    private let stored = Locked<Int32>(0)
    var value: Int32 {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
