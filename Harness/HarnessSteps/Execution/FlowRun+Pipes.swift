import Foundation
import HarnessCore

/// Runs without a terminal: `launch pipes`, the `stdout`/`stderr` checks, and `exit` on pipes.
extension FlowRun {
    // MARK: - launch pipes

    /// `launch pipes`: the same launch as `launch` (stub server, launch arguments, environment,
    /// seeds), through ``PipedApp``, reading the `stdin` line's text or file (or nothing).
    package func launchPipes() async throws {
        let launch = try prepareLaunch()
        let input: PipedSession.StandardInput = switch script.standardInput {
        case .text(let text)?: .text(text)
        case .file(let file)?: .file(file.absolutePath)
        case nil: .empty
        }
        do {
            pipedApp = try PipedApp.launchApp(launch, standardInput: input)
        } catch {
            throw FlowStepFailure("could not launch \(launch.executable)", details: "\(error)", showsScreen: false)
        }
    }

    // MARK: - The finished output

    /// The program's output once it has exited and both streams were read to the end; waits up
    /// to the current timeout (at once after `exit` or `kill`).
    package func finishedOutput() async throws -> PipedProgram.Output {
        guard let pipedApp else { throw FlowStepFailure("the program is not running (no launch pipes yet)", showsScreen: false) }
        do {
            return try await pipedApp.session.waitForExit(timeout: timeout)
        } catch PipedSessionError.timeout(_, let after, let standardOutput, let standardError, _) {
            throw FlowStepFailure("the program did not exit within \(FlowDurationParser.format(after))",
                                  details: "\(standardOutput)\n\(standardError)", showsScreen: false)
        } catch PipedSessionError.outputStillOpen(_, let status, let after, let standardOutput, let standardError, _) {
            throw FlowStepFailure(
                "the program \(status), but its output was still open after \(FlowDurationParser.format(after)) "
                    + "(a process it started holds it)",
                details: "\(standardOutput)\n\(standardError)", showsScreen: false)
        } catch {
            throw FlowStepFailure("\(error)", showsScreen: false)
        }
    }

    /// `stdout (5 bytes): oops\n`: the end of a stream for a message; when the stream went over
    /// the output limit, the label says how many of its first bytes were dropped.
    package static func tail(of stream: FlowStream, in output: PipedProgram.Output) -> String {
        let dropped = stream == .stdout ? output.droppedStandardOutputBytes : output.droppedStandardErrorBytes
        let label = dropped > 0 ? "\(stream.rawValue) after its first \(dropped) bytes (dropped: output limit)" : stream.rawValue
        return PrintableBytes.tail(label, of: bytes(of: stream, in: output))
    }

    /// What a failed `stdout`/`stderr` check shows: the end of the stream checked, the end of
    /// the other one, and how the program ended (`exited with code 2 (status 2)`).
    package static func details(checking stream: FlowStream, in output: PipedProgram.Output) -> String {
        let other: FlowStream = stream == .stdout ? .stderr : .stdout
        return tail(of: stream, in: output) + "\n" + tail(of: other, in: output)
            + "\nthe program \(output.status) (status \(output.shellStatus))"
    }

    /// Whether `bytes` hold the UTF-8 of `text`: a plain byte search over the buffer
    /// (Foundation's `Data.range(of:)` copied a stream of tens of MiB to search it).
    package static func contains(_ bytes: Data, _ text: String) -> Bool {
        var needle = text
        return needle.withUTF8 { pattern in
            bytes.withUnsafeBytes { raw in
                ByteSearch.firstIndex(of: pattern, in: raw.bindMemory(to: UInt8.self)) != nil
            }
        }
    }

    package static func bytes(of stream: FlowStream, in output: PipedProgram.Output) -> Data {
        switch stream {
        case .stdout: output.standardOutputData
        case .stderr: output.standardErrorData
        }
    }

    // MARK: - stdout, stderr

    /// `stdout CHECK` / `stderr CHECK`: waits for the end of the program, then checks the whole stream.
    package func checkStream(_ stream: FlowStream, _ check: FlowStreamCheck) async throws {
        let output = try await finishedOutput()
        let bytes = Self.bytes(of: stream, in: output)
        let name = stream.rawValue
        let tail = Self.details(checking: stream, in: output)
        switch check {
        case .contains(let text):
            if !Self.contains(bytes, text) {
                throw FlowStepFailure("\(name) does not contain it", details: tail, showsScreen: false)
            }
        case .matches(let pattern):
            let expression = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
            if !CompiledRegex(expression).matches(String(decoding: bytes, as: UTF8.self)) {
                throw FlowStepFailure("\(name) does not match it", details: tail, showsScreen: false)
            }
        case .empty:
            if !bytes.isEmpty {
                throw FlowStepFailure("\(name) is not empty", details: tail, showsScreen: false)
            }
        case .equals(let file):
            let expected = try Self.read(file)
            if bytes != expected {
                throw FlowStepFailure(
                    "\(name) differs from \(file.written)",
                    details: "expected (\(file.written)): \(expected.count) bytes, actual: \(bytes.count) bytes\n"
                        + RawTextDifference.describe(reference: expected, actual: bytes) + "\n" + tail,
                    showsScreen: false)
            }
        case .snapshot(let snapshotName):
            let (mode, artifacts) = try snapshotSettings()
            if let message = SnapshotVerifier(
                filePath: snapshotPlace.filePath, function: snapshotPlace.function, name: snapshotName, record: mode,
                snapshotDirectory: snapshotPlace.directory, artifactsDirectory: artifacts, owner: snapshotOwner,
                mirrorRoot: snapshotMirrorRoot
            ).verify(bytes, as: .rawText) {
                var failure = Self.snapshotFailure(message)
                failure.details = (failure.details.map { $0 + "\n" } ?? "") + tail
                throw failure
            }
        }
    }

    // MARK: - exit

    /// `exit CODE` after `launch pipes`: waits for the end of the program (signal N counts as
    /// 128+N); a wrong status shows the ends of stderr and stdout.
    package func pipedExit(_ code: Int32) async throws {
        let output = try await finishedOutput()
        if output.shellStatus != code {
            throw FlowStepFailure(
                "the program \(output.status) (status \(output.shellStatus)), expected status \(code)",
                details: Self.tail(of: .stderr, in: output) + "\n" + Self.tail(of: .stdout, in: output),
                showsScreen: false)
        }
    }
}
