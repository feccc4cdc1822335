import Foundation
import HarnessCore
import HarnessSteps
import HarnessWire
import TerminalEmulator
import HarnessSystem

/// Reads `.flow` files into checked ``FlowScript`` values, reporting every mistake of a file at
/// once with its line and column.
///
/// ```swift
/// do {
///     let script = try FlowParser.parse(source, file: "login.flow", directory: "/repo/Tests/Flows")
/// } catch {
///     print(error)   // login.flow:7:12: unknown key "entr" (did you mean "enter"?)
/// }
/// ```
public enum FlowParser {
    /// Every command keyword, in the table's order (``FlowKeyword``).
    public static var commandNames: [String] { FlowKeyword.allCases.map(\.rawValue) }

    /// Parses `source` and checks the order of its commands.
    ///
    /// - Parameters:
    ///   - file: the name used in error positions (usually the path relative to the run root).
    ///   - directory: the flow file's directory, against which relative files are resolved.
    /// - Throws: ``FlowParseErrors`` with every mistake of the file, in line order.
    public static func parse(_ source: String, file: String, directory: String) throws(FlowParseErrors) -> FlowScript {
        try parse(source, file: file, directory: directory, path: nil)
    }

    /// ``parse(_:file:directory:)`` of the file at `path` (absolute; nil for a text not read
    /// from a file), which an `include` cycle may lead back to.
    static func parse(_ source: String, file: String, directory: String, path: String?) throws(FlowParseErrors) -> FlowScript {
        var errors: [FlowParseError] = []
        var keywordsWithErrors: Set<FlowKeyword> = []
        let sourceLines = lines(of: source)
        let chain = IncludeChain(root: directory, files: path.map { [(Posix.resolvedPath($0) ?? $0, file)] } ?? [])
        let steps = steps(of: sourceLines, file: file, directory: directory, chain: chain, errors: &errors,
                          keywordsWithErrors: &keywordsWithErrors)
        let lineCount = max(1, sourceLines.count)
        errors += FlowOrderChecker.check(steps, file: file, lastLine: lineCount, ignoring: keywordsWithErrors)
        errors = errors.enumerated().sorted {
            ($0.element.position.line, $0.element.position.column, $0.offset) < ($1.element.position.line, $1.element.position.column, $1.offset)
        }.map(\.element)
        if !errors.isEmpty { throw FlowParseErrors(errors) }
        return FlowScript(file: file, directory: directory, steps: steps, needs: FlowScript.needs(of: steps))
    }

    /// Reads, parses and checks the flow at `path`, including that the files it refers to
    /// (`json`, `seed`, `equals`, `last`) exist.
    ///
    /// - Parameter displayName: the name used in error positions; by default `path` as given.
    public static func load(path: String, displayName: String? = nil) throws(FlowParseErrors) -> FlowScript {
        let name = displayName ?? path
        let absolute = path.hasPrefix("/") ? path : FlowPaths.join(FileManager.default.currentDirectoryPath, path)
        let source = try read(absolute, name: name)
        let script = try parse(source, file: name, directory: FlowPaths.directory(of: absolute), path: absolute)
        let missing = missingFiles(in: script)
        if !missing.isEmpty { throw FlowParseErrors(missing) }
        return script
    }

    /// The text of the flow file at `absolute`: a regular file (a FIFO, a socket or a device
    /// is refused before it is opened, so reading never blocks) of valid UTF-8 (else the
    /// first invalid byte is named, with its line and column).
    static func read(_ absolute: String, name: String) throws(FlowParseErrors) -> String {
        func failure(_ kind: FlowParseError.Kind, line: Int = 1, column: Int = 1) -> FlowParseErrors {
            FlowParseErrors([FlowParseError(kind, at: SourcePosition(file: name, line: line, column: column))])
        }
        if let status = Posix.fileStatus(ofPath: absolute), !status.isRegularFile, !status.isDirectory {
            throw failure(.notARegularFile(path: absolute, type: status.type.description))
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: absolute))
        } catch {
            throw failure(.unreadableFile(reason: "\(absolute): \(error.localizedDescription)"))
        }
        let bytes = [UInt8](data)
        if let source = String(validating: bytes, as: UTF8.self) { return source }
        let offset = firstInvalidUTF8Offset(bytes)
        let lineStart = bytes[..<offset].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let line = bytes[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        throw failure(.invalidUTF8(byte: bytes[offset], offset: offset), line: line, column: offset - lineStart + 1)
    }

    /// The offset of the first byte of `bytes` that does not start or continue a valid UTF-8
    /// character (the start of the first invalid sequence).
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length = byte < 0x80 ? 1 : byte >= 0xC2 && byte < 0xE0 ? 2 : byte >= 0xE0 && byte < 0xF0 ? 3
                : byte >= 0xF0 && byte <= 0xF4 ? 4 : 0
            guard length > 0, index + length <= bytes.count,
                  String(validating: bytes[index..<index + length], as: UTF8.self) != nil else { return index }
            index += length
        }
        return bytes.count
    }

    /// Errors for every file the script refers to that does not exist: the files named by the
    /// arguments of the commands whose keyword needs files (``FlowKeyword/Needs/files``).
    public static func missingFiles(in script: FlowScript) -> [FlowParseError] {
        let launch = script.launchIndex ?? script.steps.count
        return script.steps.enumerated().flatMap { index, step -> [FlowParseError] in
            guard step.command.keyword.definition.needs(afterLaunch: index > launch).contains(.files) else { return [] }
            return step.command.written.files.filter { !FileManager.default.fileExists(atPath: $0.absolutePath) }.map {
                FlowParseError(.missingFile(written: $0.written, resolved: $0.absolutePath), at: step.position)
            }
        }
    }

    /// The lines of `source`, split on LF with a trailing CR removed (so CRLF files work).
    static func lines(of source: String) -> [Substring] {
        var result: [Substring] = []
        var lineStart = source.unicodeScalars.startIndex
        let scalars = source.unicodeScalars
        var index = scalars.startIndex
        func append(upTo end: String.UnicodeScalarView.Index) {
            var lineEnd = end
            if lineEnd > lineStart, scalars[scalars.index(before: lineEnd)] == "\r" {
                lineEnd = scalars.index(before: lineEnd)
            }
            result.append(Substring(scalars[lineStart..<lineEnd]))
        }
        while index < scalars.endIndex {
            if scalars[index] == "\n" {
                append(upTo: index)
                lineStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        if lineStart < scalars.endIndex { append(upTo: scalars.endIndex) }
        return result
    }
}

extension FlowParser {
    /// Reads the command of one line: its keyword, then the arguments its grammar
    /// (``FlowKeyword/Grammar``) reads with the functions of the `FlowParser+Topic.swift` files.
    final class LineParser {
        var scanner: FlowLineScanner
        let directory: String
        /// The command's keyword once recognised (to silence follow-up order errors).
        private(set) var keyword: FlowKeyword?

        init(scanner: FlowLineScanner, directory: String) {
            self.scanner = scanner
            self.directory = directory
        }

        /// The line's step, or nil for a blank or comment line.
        func parseLine() throws(FlowParseError) -> FlowStep? {
            guard let word = try scanner.nextArgument() else { return nil }
            let position = SourcePosition(file: scanner.file, line: scanner.line, column: word.column)
            guard !word.quoted, let keyword = FlowKeyword(rawValue: word.text) else {
                let suggestion = FlowSuggestion.closest(to: word.text, in: FlowParser.commandNames)
                throw scanner.error(.unknownCommand(word.text, suggestion: suggestion), column: word.column)
            }
            self.keyword = keyword
            let command = try keyword.definition.grammar.parse(self)()
            try expectEnd()
            return FlowStep(command: command, position: position)
        }
    }
}
