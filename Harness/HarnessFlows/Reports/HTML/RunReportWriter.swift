import Foundation
import HarnessCore
import HarnessSteps
import TerminalEmulator

/// Writes a run report into its folder: `index.html` (``RunReportPage``) and `results.json`
/// (the ``RunReport`` itself, which `harness merge-reports` reads back), and reads it back.
///
/// ```swift
/// let page = try RunReportWriter.write(report, toFolder: "artifacts")   // artifacts/index.html
/// let again = try RunReportWriter.read(folder: "artifacts")
/// ```
public enum RunReportWriter {
    /// The page's file name.
    public static let pageName = "index.html"
    /// The data's file name.
    public static let resultsName = "results.json"

    /// Writes both files into `folder` (created if needed); returns the page's path.
    @discardableResult
    public static func write(_ report: RunReport, toFolder folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: FlowPaths.join(folder, resultsName)), options: .atomic)
        let page = FlowPaths.join(folder, pageName)
        try Data(RunReportPage.html(report).utf8).write(to: URL(fileURLWithPath: page), options: .atomic)
        return page
    }

    /// The report in `folder/results.json`.
    /// - Throws: ``RunReportError`` naming the file when it is missing, unreadable or of another format.
    public static func read(folder: String) throws -> RunReport {
        let path = FlowPaths.join(folder, resultsName)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            if let swift = try readSwiftReports(folder: folder) { return swift }
            throw RunReportError(path: path, reason: "cannot read it (was the run given --artifacts \(folder), "
                                 + "or HARNESS_ARTIFACTS=\(folder) to swift test?)")
        }
        return try decode(data, path: path)
    }

    /// The reports Swift tests left under `<folder>/swift-tests/` (``StepEngine``), merged into
    /// one; nil when there are none.
    static func readSwiftReports(folder: String) throws -> RunReport? {
        let directory = FlowPaths.join(folder, StepEngine.swiftReportsFolder)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        let files = names.filter { $0.hasSuffix(".json") }.sorted()
        guard !files.isEmpty else { return nil }
        var parts: [(report: RunReport, prefix: String)] = []
        for file in files {
            let path = FlowPaths.join(directory, file)
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
                throw RunReportError(path: path, reason: "cannot read it")
            }
            parts.append((try decode(data, path: path), ""))
        }
        var merged = RunReport.merged(parts, title: "Swift tests")
        merged.caseKind = .tests
        return merged
    }

    private static func decode(_ data: Data, path: String) throws -> RunReport {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let report: RunReport
        do {
            report = try decoder.decode(RunReport.self, from: data)
        } catch {
            throw RunReportError(path: path, reason: "not a run report (\(error))")
        }
        guard report.version == RunReport.formatVersion else {
            throw RunReportError(path: path, reason: "report format \(report.version), this harness reads \(RunReport.formatVersion)")
        }
        return report
    }
}

/// A `results.json` that cannot be used: its path and why.
public struct RunReportError: Error, Equatable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    /// `PATH: REASON`.
    public var description: String { "\(path): \(reason)" }
}
