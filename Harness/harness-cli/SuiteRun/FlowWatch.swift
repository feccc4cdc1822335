import Foundation
import HarnessFlows
import HarnessSystem

/// `harness run --watch`: runs the flows, then waits for one of the files they read to change
/// (the flow file, the files its lines name, the program: ``FlowScript/dependencies(flowPath:environment:)``)
/// and runs again the flow cases that read it, until SIGINT or SIGTERM. The wait is the
/// kernel's (inotify on the files' folders, watched by the event loop), not a polling loop;
/// a signal during the wait ends the command at once with 128 + the signal, a signal during a
/// run ends that run as without `--watch`. A change made while a run is under way is seen too:
/// each file's version (identity, size, times) is kept when a run reads it, and compared once
/// the kernel watches again, so such a change runs the flows again at once.
enum FlowWatch {
    /// Runs `harness run` with `--watch`.
    static func run(_ parsed: CommandArguments, command: String, source makeSource: (SuiteRunContext) throws -> FlowSuite) async throws -> Int32 {
        guard Posix.canWatchFolders else { throw CommandError.usage("--watch needs inotify (Linux)") }
        guard !parsed.has("list") else { throw CommandError.usage("--watch runs the flows: it cannot be used with --list") }
        let interruption = try RunInterruption(command: command)
        let watched = WatchedFlows()
        var status = try await SuiteRun.run(parsed, command: command, interruption: interruption, watched: watched, source: makeSource)
        while interruption.signal == nil {
            let changed = try await nextChanges(of: watched, interruption: interruption)
            guard interruption.signal == nil else { break }
            HarnessCLI.printLine("Changed: \(changed.sorted().joined(separator: ", "))")
            watched.restrict(to: watched.cases(reading: changed))
            status = try await SuiteRun.run(parsed, command: command, interruption: interruption, watched: watched, source: makeSource)
        }
        return interruption.exitStatus ?? status
    }

    /// Which of the watched files changed: those that changed since the run read them (seen
    /// once the kernel watches, so none falls between the two), else the first batch the kernel
    /// reports that names one of them (others, such as an editor's temporary files beside them,
    /// are passed over); empty when SIGINT or SIGTERM came first. The kernel watches the files'
    /// folders (so that a file replaced by a rename, as editors and linkers write, is seen); the
    /// line saying so is printed once it does, so a change made after the line is seen.
    private static func nextChanges(of watched: WatchedFlows, interruption: RunInterruption) async throws -> Set<String> {
        let files = watched.files
        let folders = Set(files.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
            .filter { FileManager.default.fileExists(atPath: $0) }.sorted()
        let (fd, watches) = try Posix.watchFolders(folders)
        let changedDuringTheRun = watched.changedSinceRead()
        guard changedDuringTheRun.isEmpty else {
            Posix.closeIgnoringErrors(fd)
            return changedDuringTheRun
        }
        HarnessCLI.printLine("Watching \(files.count) file\(files.count == 1 ? "" : "s") for changes (Ctrl-C ends)")
        let wait = ChangeWait()
        let watch = EventLoop.shared.watch(fd, for: .readable) { _ in
            let changed = Posix.readFolderChanges(fd).compactMap { change in watches[change.watch].map { FlowPaths.join($0, change.name) } }
            let relevant = files.intersection(changed)
            if !relevant.isEmpty { wait.finish(relevant) }
        }
        await interruption.run {
            await withTaskCancellationHandler {
                await withCheckedContinuation { wait.await($0) }
            } onCancel: {
                wait.finish([])
            }
        }
        EventLoop.shared.unwatch(watch, closing: true)
        return wait.paths
    }
}

/// One wait for changed files: finished by the event loop when the kernel reports changes, or by
/// the task's cancellation; the awaiting task resumes once, whichever came first.
private final class ChangeWait: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, Never>?
        var finished = false
        var paths: Set<String> = []
    }

    private let state = Locked(State())

    /// The paths reported.
    var paths: Set<String> { state.withLock { $0.paths } }

    /// Resumes `continuation` once the wait is finished (at once when it is).
    func await(_ continuation: CheckedContinuation<Void, Never>) {
        let finished = state.withLock { state -> Bool in
            if !state.finished { state.continuation = continuation }
            return state.finished
        }
        if finished { continuation.resume() }
    }

    /// Adds `paths` and finishes the wait.
    func finish(_ paths: Set<String>) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.paths.formUnion(paths)
            state.finished = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}

/// What `harness run --watch` knows of the flow cases across its runs: the files each reads,
/// and which cases the next run is restricted to. Filled by the suite as it lists and prepares
/// them (``FlowCaseSelection``, ``FlowSuite``).
final class WatchedFlows: Sendable {
    private struct State {
        var dependencies: [String: Set<String>] = [:]
        var restriction: Set<String>?
        /// Each file's version when a run last read it (nil: it did not exist).
        var versions: [String: Posix.FileVersion?] = [:]
    }

    private let state = Locked(State())

    /// Adds the files each case (by name) reads, and keeps the version of each as the run reads
    /// it (a case the run does not take keeps the version its last run read).
    func remember(_ dependencies: [String: [String]]) {
        state.withLock { state in
            for (name, files) in dependencies {
                state.dependencies[name, default: []].formUnion(files)
                let runs = state.restriction?.contains(name) ?? true
                for file in files where runs || state.versions[file] == nil {
                    state.versions[file] = .some(Posix.fileVersion(ofPath: file))
                }
            }
        }
    }

    /// The files whose version is no longer the one the runs read.
    func changedSinceRead() -> Set<String> {
        state.withLock { state in
            Set(state.versions.filter { file, version in Posix.fileVersion(ofPath: file) != version }.keys)
        }
    }

    /// Whether the run takes case `name`.
    func isSelected(_ name: String) -> Bool { state.withLock { $0.restriction?.contains(name) ?? true } }

    /// Restricts the next run to `names`.
    func restrict(to names: Set<String>) { state.withLock { $0.restriction = names } }

    /// Every file a case reads.
    var files: Set<String> { state.withLock { $0.dependencies.values.reduce(into: Set<String>()) { $0.formUnion($1) } } }

    /// The cases that read one of `paths`.
    func cases(reading paths: Set<String>) -> Set<String> {
        state.withLock { state in
            Set(state.dependencies.filter { !$0.value.isDisjoint(with: paths) }.keys)
        }
    }
}
