import Foundation
import HarnessSteps
import HarnessCore
import HarnessSystem

/// `include FILE`: another file's setup lines spliced in where the line is.
///
/// The file is named relative to the including file and must stay inside the folder of the flow
/// that started the chain, lexically and by real path (a link that leads out is refused): a flow
/// is untrusted input and cannot make the runner read files elsewhere. It holds setup lines only;
/// its lines keep their own file and line, so a failure in one points there. A file that leads
/// back to one already being included is an error naming the chain.
extension FlowParser {
    /// The files being included, from the flow that started the chain to the current one.
    struct IncludeChain {
        /// The folder includes must stay in (the first flow's).
        var root: String
        /// Each file's real path and its name in messages, outermost first.
        var files: [(path: String, name: String)]
    }

    /// The steps of `lines` (of the file `file` in `directory`), with each `include` replaced by
    /// the included file's steps; every mistake goes to `errors`.
    static func steps(
        of lines: [Substring], file: String, directory: String, chain: IncludeChain,
        errors: inout [FlowParseError], keywordsWithErrors: inout Set<FlowKeyword>
    ) -> [FlowStep] {
        var steps: [FlowStep] = []
        for (offset, text) in lines.enumerated() {
            let parser = LineParser(scanner: FlowLineScanner(text, file: file, line: offset + 1), directory: directory)
            do {
                guard let step = try parser.parseLine() else { continue }
                if case .include(let included) = step.command {
                    steps += self.included(included, at: step.position, chain: chain, errors: &errors,
                                           keywordsWithErrors: &keywordsWithErrors)
                } else {
                    steps.append(step)
                }
            } catch {
                errors.append(error)
                if let keyword = parser.keyword { keywordsWithErrors.insert(keyword) }
            }
        }
        return steps
    }

    /// The setup steps of the file an `include` at `position` names.
    private static func included(
        _ reference: FlowFileReference, at position: SourcePosition, chain: IncludeChain,
        errors: inout [FlowParseError], keywordsWithErrors: inout Set<FlowKeyword>
    ) -> [FlowStep] {
        let written = reference.written
        func refuse(_ reason: String) -> [FlowStep] {
            errors.append(FlowParseError(.invalidInclude(written: written, reason: reason), at: position))
            return []
        }
        guard !written.hasPrefix("/") else { return refuse("an included file is named relative to the flow, not by an absolute path") }
        let root = FlowPaths.normalize(chain.root)
        guard FlowPaths.relative(reference.absolutePath, to: root) != nil else {
            return refuse("it leaves the flow's folder \(root)")
        }
        guard let real = Posix.resolvedPath(reference.absolutePath) else {
            return refuse("file not found (looked at \(reference.absolutePath))")
        }
        guard Posix.isPath(real, inside: Posix.resolvedPath(root) ?? root) else {
            return refuse("it leads out of the flow's folder \(root) (to \(real))")
        }
        let name = FlowPaths.join(FlowPaths.directory(of: position.file), written)
        if let first = chain.files.firstIndex(where: { $0.path == real }) {
            errors.append(FlowParseError(.includeCycle(chain.files[first...].map(\.name) + [name]), at: position))
            return []
        }
        let source: String
        do {
            source = try read(real, name: name)
        } catch {
            errors += error.errors
            return []
        }
        var inner = chain
        inner.files.append((real, name))
        let steps = steps(of: lines(of: source), file: name, directory: FlowPaths.directory(of: reference.absolutePath),
                          chain: inner, errors: &errors, keywordsWithErrors: &keywordsWithErrors)
        return steps.filter { step in
            guard step.command.keyword.definition.phase == .setup else {
                let setup = FlowKeyword.allCases.filter { $0.definition.phase == .setup && $0 != .include }.map(\.rawValue)
                errors.append(FlowParseError(.invalidInclude(
                    written: written,
                    reason: "\(step.command.keyword.rawValue) is not a setup line (an included file holds "
                        + setup.joined(separator: ", ") + " and include lines)"), at: step.position))
                return false
            }
            return true
        }
    }
}
