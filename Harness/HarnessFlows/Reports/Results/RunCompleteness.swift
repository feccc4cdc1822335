import HarnessSteps
/// Whether the shards given to `harness merge-reports` make a whole run: every shard of every
/// plan is there, once, with a report; every planned name ran in exactly one shard; no shard
/// ran a name outside its plan; and the shards of a suite split it the same way.
///
/// Each part is one shard's folder: its plan (``FlowRunPlan``, nil for a folder written
/// without one, which is merged unchecked) and the names its report holds (nil when it has no
/// report: the shard crashed). Shards belong together when their plans name the same suite
/// (``FlowRunPlan/suite``) and the same number of shards. Every problem is one line that names
/// exactly what is missing or doubled.
///
/// ```swift
/// let check = RunCompleteness([.init(folder: "shard-1", plan: plan1, ran: ["a.flow"]),
///                              .init(folder: "shard-2", plan: plan2, ran: nil)])
/// if !check.problems.isEmpty { print(check.problems.joined(separator: "\n")) }
/// ```
package struct RunCompleteness: Sendable {
    /// One shard's folder as the merge found it.
    package struct Part: Sendable {
        /// The folder, as messages name it.
        package var folder: String
        /// Its plan, or nil when it holds none.
        package var plan: FlowRunPlan?
        /// The names its report holds, or nil when it has no report.
        package var ran: [String]?

        package init(folder: String, plan: FlowRunPlan?, ran: [String]?) {
            self.folder = folder
            self.plan = plan
            self.ran = ran
        }
    }

    /// What makes the run incomplete, one line each, in a fixed order; empty when it is whole.
    package let problems: [String]
    /// The folders merged without a plan (nothing proves them complete).
    package let unchecked: [String]

    /// Whether nothing is missing or doubled.
    package var isComplete: Bool { problems.isEmpty }

    package init(_ parts: [Part]) {
        var problems: [String] = []
        unchecked = parts.filter { $0.plan == nil && $0.ran != nil }.map(\.folder)

        // Where each name ran, over every folder (planned or not).
        var ranIn: [String: [Int]] = [:]
        for (index, part) in parts.enumerated() {
            for name in Set(part.ran ?? []) { ranIn[name, default: []].append(index) }
        }
        func place(_ index: Int) -> String {
            parts[index].plan.map { "\($0.shardDescription) (\(parts[index].folder))" } ?? parts[index].folder
        }

        // The shards of each plan: all there, once each, with a report, split alike.
        struct Key: Hashable { var suite: String; var count: Int }
        var groups: [Key: [Int]] = [:]
        for (index, part) in parts.enumerated() {
            guard let plan = part.plan else { continue }
            groups[Key(suite: plan.suite, count: plan.count), default: []].append(index)
        }
        var reported: Set<String> = []  // names already named in a missing shard's line
        for (key, members) in groups.sorted(by: { ($0.key.suite, $0.key.count) < ($1.key.suite, $1.key.count) }) {
            let first = parts[members[0]].plan!
            let label = "\(first.command) suite \(first.shortSuite) (\(first.counted(first.assignment.count)) planned, \(key.count) shard\(key.count == 1 ? "" : "s"))"
            let identities = Dictionary(grouping: members) { parts[$0].plan!.identity }
            if identities.count > 1 {
                let list = members.map { "\(place($0)) plan \(parts[$0].plan!.identity.prefix(12))" }.joined(separator: ", ")
                problems.append("\(label): the shards split the suite differently: \(list); were they planned from "
                                + "different durations? Re-run a shard with --plan FILE, FILE a plan of the first run (docs/NIGHTLY.md)")
            }
            for shard in 1...key.count {
                let holders = members.filter { parts[$0].plan!.shard == shard }
                let withReport = holders.filter { parts[$0].ran != nil }
                if holders.count > 1 {
                    problems.append("\(label): shard \(shard)/\(key.count) was given \(holders.count) times: "
                                    + holders.map { parts[$0].folder }.joined(separator: ", "))
                }
                guard withReport.isEmpty else { continue }
                // Its flows ran nowhere unless another shard ran them (a differing split).
                let lost = first.assignment.filter { $0.value == shard && ranIn[$0.key] == nil }.map(\.key).sorted()
                reported.formUnion(lost)
                let why = holders.isEmpty
                    ? "is missing (no folder given holds it)"
                    : "has no report (\(holders.map { parts[$0].folder }.joined(separator: ", ")) holds its plan but no results.json: did it crash?)"
                problems.append("\(label): shard \(shard)/\(key.count) \(why)"
                                + (lost.isEmpty ? "" : ": its \(first.counted(lost.count)) planned ran nowhere: " + lost.joined(separator: ", ")))
            }
            // Planned names that ran nowhere although their shard reported.
            let planned = Set(members.flatMap { parts[$0].plan!.assignment.keys })
            let nowhere = planned.filter { ranIn[$0] == nil && !reported.contains($0) }.sorted()
            if !nowhere.isEmpty {
                let list = nowhere.map { name in "\(name) (shard \(first.assignment[name].map(String.init) ?? "?")/\(key.count))" }
                problems.append("\(label): \(first.counted(nowhere.count)) planned ran nowhere: "
                                + list.joined(separator: ", "))
            }
            // Names a shard ran outside its plan.
            for index in members {
                guard let ran = parts[index].ran else { continue }
                let plan = parts[index].plan!
                let extra = Set(ran).filter { plan.assignment[$0] == nil }.sorted()
                if !extra.isEmpty {
                    problems.append("\(label): shard \(place(index)) ran \(plan.counted(extra.count)) not in its plan: \(extra.joined(separator: ", "))")
                }
            }
        }

        // Names that ran in more than one folder.
        for (name, places) in ranIn.sorted(by: { $0.key < $1.key }) where places.count > 1 {
            problems.append("\(name) ran in \(places.count) shards: \(places.map(place).joined(separator: ", "))")
        }
        self.problems = problems
    }
}
