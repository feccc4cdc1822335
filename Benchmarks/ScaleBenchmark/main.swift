// Scale figures of the harness: threads, descriptors and resident memory of this
// process with 1 to 256 concurrent PTY sessions; sequential launch-wait-teardown cycles; launch
// to first screen text beside a raw posix_spawn on a bare pty. Uses HarnessCore's public API,
// and its `TerminalSession.launched` where tasks launch at once (it spawns without blocking a
// thread of the pool).
//
//   swift build -c release --product ScaleBenchmark && .build/release/ScaleBenchmark [--quick]
//
// Every figure is printed; nothing is judged here (docs/PERFORMANCE.md reads them).

import Foundation

let registry = SessionRegistry()

/// Ends what is still running, says why on standard error and exits non-zero.
func fail(_ error: any Error) -> Never {
    registry.endAll()
    if case ScaleBenchmarkError.usage(nil) = error {
        print(ScaleOptions.usage)
        exit(0)
    }
    FileHandle.standardError.write(Data("ScaleBenchmark failed: \(error)\n".utf8))
    if case ScaleBenchmarkError.usage = error { exit(2) }
    exit(1)
}

func format(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }
func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }
func signed(_ value: Double, _ digits: Int = 1) -> String {
    let text = format(value, digits)
    guard Double(text) != 0 else { return format(0, digits) }  // not "-0.0" or "+0.0"
    return value > 0 ? "+" + text : text
}

let options: ScaleOptions
do { options = try ScaleOptions.parse(Array(CommandLine.arguments.dropFirst())) } catch { fail(error) }
let timeout = Duration.seconds(options.timeoutSeconds)

do {
    let limit = try DescriptorLimit.raiseToHard()
    let loadAverage = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
        .split(separator: " ").prefix(3).joined(separator: " ") ?? "unknown"
    let start = try ProcessFigures.current()
    print("ScaleBenchmark: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage) at start")
    print("RLIMIT_NOFILE: soft \(limit.before) -> \(limit.after), hard \(limit.hard)")
    print("process at start: \(start.threads) threads, \(start.descriptors) descriptors, \(format(start.residentMiB)) MiB resident")
    print("")

    // 1. Concurrent sessions.
    let warmUpSessions = 16
    print("1. Concurrent PTY sessions, all live at once; each runs sh -c '\(EchoPrograms.lineEcho)',")
    print("   awaits \"ready\", then types \(options.linesPerSession) lines and awaits each answer on its screen.")
    print("   threads/descriptors/RSS: this process, taken while all sessions are live; peak threads: most seen by a")
    print("   session right after its last answer; after: once all were ended. A first round of \(warmUpSessions) sessions, not counted, brings Swift's task pool")
    print("   (Dispatch's workers, one per core once tasks run in parallel) to its working size.")
    _ = try await ConcurrentRound.run(sessions: warmUpSessions, lines: 1, timeout: timeout, registry: registry)
    var concurrent = TextTable(
        "sessions", "threads", "peak threads", "descriptors", "RSS MiB", "up+typed s", "teardown s",
        "threads after", "descriptors after", "RSS MiB after")
    for count in options.sessionCounts {
        let round = try await ConcurrentRound.run(
            sessions: count, lines: options.linesPerSession, timeout: timeout, registry: registry)
        concurrent.add(
            "\(count)", "\(round.live.threads)", "\(round.peakThreads)", "\(round.live.descriptors)",
            format(round.live.residentMiB), format(round.upSeconds, 3), format(round.teardownSeconds, 3),
            "\(round.after.threads)", "\(round.after.descriptors)", format(round.after.residentMiB))
    }
    print(concurrent.text)
    print("")

    // 2. Sequential launch, wait, teardown.
    let cycles = try await LaunchCycles.run(cycles: options.cycles, timeout: timeout, registry: registry)
    print("2. \(options.cycles) sequential cycles of launch \(EchoPrograms.readyArguments.joined(separator: " ")) -> waitFor(text: \"ready\") -> terminate()")
    print("   (after \(cycles.warmUp) warm-up cycles, not counted)")
    var sequential = TextTable("cycles done", "threads", "descriptors", "RSS MiB", "seconds")
    for sample in cycles.samples {
        sequential.add(
            "\(sample.cycle)", "\(sample.figures.threads)", "\(sample.figures.descriptors)",
            format(sample.figures.residentMiB), format(sample.seconds, 2))
    }
    sequential.add(
        "delta end-start", signed(cycles.last.figures.threads - cycles.first.figures.threads),
        signed(cycles.last.figures.descriptors - cycles.first.figures.descriptors),
        signed(cycles.last.figures.residentMiB - cycles.first.figures.residentMiB), "")
    print(sequential.text)
    print("cycles per second: \(format(cycles.cyclesPerSecond))")
    print("")

    // 3. Launch to first screen text.
    let firstByte = try await FirstByteLatency.run(launches: options.launches, timeout: timeout, registry: registry)
    print("3. Launch to first text: \(EchoPrograms.readyArguments.joined(separator: " ")), \(options.launches) launches each")
    print("   (after \(firstByte.warmUp) warm-up each), alternating in blocks of 10; this process: \(format(firstByte.before.residentMiB)) MiB resident")
    var latency = TextTable("launch until \"ready\" is seen", "median µs", "p99 µs")
    latency.add("raw pty: posix_openpt + posix_spawn, poll + read", format(firstByte.raw.median), format(firstByte.raw.p99))
    latency.add("TerminalSession.launch + waitFor(text:)", format(firstByte.ours.median), format(firstByte.ours.p99))
    latency.add(
        "  of which until TerminalSession.launch returned", format(firstByte.oursLaunchReturned.median),
        format(firstByte.oursLaunchReturned.p99))
    latency.add(
        "ratio (ours / raw)", format(firstByte.ours.median / firstByte.raw.median, 2) + "x",
        format(firstByte.ours.p99 / firstByte.raw.p99, 2) + "x")
    print(latency.text)

    let end = try ProcessFigures.current()
    print("")
    print("process at end: \(end.threads) threads, \(end.descriptors) descriptors, \(format(end.residentMiB)) MiB resident")
    guard registry.liveCount == 0 else { throw ScaleBenchmarkError.unexpected("\(registry.liveCount) sessions still live at the end") }
} catch {
    fail(error)
}
