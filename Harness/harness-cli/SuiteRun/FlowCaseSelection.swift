import Foundation
import HarnessFlows

/// Which runs of the flows found `harness run` makes: the flows whose `tag` lines have a
/// `--tag` (any of them) and none of the `--skip-tag`s, each once per case of its matrix (its
/// `matrix` lines, with `--matrix` axes over them: ``FlowMatrix``), each case `--repeat-each`
/// times, keeping the cases whose name (``FlowFile/caseName``, `todo.flow[40x12,light,nocolor]`)
/// `--grep` matches. A flow that does not parse is kept as one case: the run says why it cannot
/// run it.
struct FlowCaseSelection: Sendable {
    /// The options read here.
    static let options: [CommandOption] = [
        CommandOption(name: "grep", value: "REGEX", summary: "keeps the flow cases whose name (path and matrix case) the regex matches"),
        CommandOption(name: "tag", value: "NAME", summary: "keeps the flows with this tag (a tag line); repeatable: any of them"),
        CommandOption(name: "skip-tag", value: "NAME", summary: "leaves out the flows with this tag; repeatable"),
        CommandOption(name: "matrix", value: "AXIS=V1,V2",
                      summary: "runs each flow once per combination; AXIS size (80x24,...), theme (dark,light) or color (on,off); repeatable"),
    ]

    let tags: Set<String>
    let skippedTags: Set<String>
    let grep: String?
    private let grepRegex: NSRegularExpression?
    let matrix: FlowMatrix
    let repeatEach: Int

    init(_ parsed: CommandArguments, repeatEach: Int) throws {
        tags = Set(parsed.values("tag"))
        skippedTags = Set(parsed.values("skip-tag"))
        grep = parsed.value("grep")
        do {
            grepRegex = try grep.map { try NSRegularExpression(pattern: $0) }
        } catch {
            throw CommandError.usage("--grep \(grep?.debugDescription ?? ""): not a regular expression")
        }
        do {
            matrix = try FlowMatrix(parsing: parsed.values("matrix"))
        } catch {
            throw CommandError.usage("--\(error)")
        }
        self.repeatEach = repeatEach
    }

    /// The cases of `found`, in order (flow, then matrix case, then repetition); with
    /// `watched`, only those it restricts the run to.
    func cases(of found: [FlowFile], environment: [String: String], watched: WatchedFlows?) -> [FlowFile] {
        var cases: [FlowFile] = []
        for flow in found {
            let script = try? FlowParser.load(flow)
            let flowTags = Set(script?.tags ?? [])
            if !tags.isEmpty, flowTags.isDisjoint(with: tags) { continue }
            if !flowTags.isDisjoint(with: skippedTags) { continue }
            let matrixCases = (script?.matrix ?? FlowMatrix()).merging(matrix).cases
            for matrixCase in matrixCases.isEmpty ? [nil] : matrixCases.map(Optional.some) {
                for repetition in 1...repeatEach {
                    var run = flow
                    run.matrixCase = matrixCase
                    run.repetition = repetition
                    let name = run.caseName
                    if let grepRegex, grepRegex.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) == nil { continue }
                    cases.append(run)
                }
            }
        }
        guard let watched else { return cases }
        watched.remember(Dictionary(cases.map { ($0.caseName, [$0.path]) }, uniquingKeysWith: { first, _ in first }))
        return cases.filter { watched.isSelected($0.caseName) }
    }

    /// Why no case was left, after `no flows under PATHS`.
    var emptyReason: String {
        var reasons: [String] = []
        if !tags.isEmpty { reasons.append("with tag \(tags.sorted().joined(separator: " or "))") }
        if !skippedTags.isEmpty { reasons.append("without tag \(skippedTags.sorted().joined(separator: ", "))") }
        if let grep { reasons.append("matching --grep \(grep.debugDescription)") }
        return reasons.isEmpty ? "to run" : reasons.joined(separator: ", ")
    }
}
