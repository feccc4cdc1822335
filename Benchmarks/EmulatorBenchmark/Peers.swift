import Foundation

/// Runs the peer emulators as subprocesses that time their own parsing.
enum Peers {
    typealias Result = (name: String, seconds: Double?, note: String)

    static func libvterm(file: URL, sourceDirectory: URL, workDirectory: URL, options: BenchmarkOptions) -> Result {
        let name = "libvterm"
        let driver = workDirectory.appendingPathComponent("vterm_driver").path
        let source = sourceDirectory.appendingPathComponent("vterm_driver.c").path
        let built = run("/usr/bin/env", ["cc", "-O2", "-o", driver, source, "-lvterm"])
        guard built.status == 0 else {
            return (name, nil, "not run: cannot build the driver (run setup.sh): \(built.output.prefix(120))")
        }
        let measured = run(driver, [file.path, "\(options.cols)", "\(options.rows)", "\(options.runs)"])
        guard measured.status == 0, let seconds = Double(measured.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return (name, nil, "driver failed: \(measured.output.prefix(120))")
        }
        return (name, seconds, "best of \(options.runs), vterm_input_write + screen layer")
    }

    static func pyte(file: URL, sourceDirectory: URL, options: BenchmarkOptions) -> Result {
        let name = "pyte"
        let script = sourceDirectory.appendingPathComponent("pyte_driver.py").path
        let measured = run("/usr/bin/env", ["python3", script, file.path, "\(options.cols)", "\(options.rows)", "\(options.pyteRuns)"])
        guard measured.status == 0, let seconds = Double(measured.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return (name, nil, "not run (pip install pyte, see setup.sh): \(measured.output.suffix(100))")
        }
        return (name, seconds, "best of \(options.pyteRuns), ByteStream.feed")
    }

    /// Runs a program, returns its status and stdout (stderr appended).
    static func run(_ path: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return (-1, "\(error)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
