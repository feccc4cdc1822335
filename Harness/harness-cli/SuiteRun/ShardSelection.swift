import Foundation
import HarnessFlows

/// The part of a suite a run takes, chosen the same way by `harness run` and
/// `harness swift-test`: a plan (``FlowRunPlan``) of every name, made from `--shard` and the
/// earlier `--durations`, or reused from `--plan FILE` (a plan an earlier shard of the same run
/// wrote), so that a re-run shard takes exactly the part it took the first time.
struct ShardSelection {
    /// The plan; ``FlowRunPlan/isMine(_:)`` says which names this run takes.
    let plan: FlowRunPlan
    /// The durations read from `--durations` (seconds by name; empty without).
    let durations: [String: Double]
    /// What the start line says after the shard: `, balanced by earlier durations (expected
    /// 12.0s of 48.0s)`, `, split as planned in FILE`, or nothing.
    let note: String

    /// Plans `names` (the whole suite after filters) for `shard`; `durationsPath` and
    /// `planPath` are absolute; `loadDurations` reads a `--durations` source.
    /// - Throws: ``ShardSelectionError`` when a file cannot be read or the plan does not fit.
    init(command: String, names: [String], shard: FlowShard?, durationsPath: String?, planPath: String?,
         loadDurations: (String) throws -> [String: Double]) throws(ShardSelectionError) {
        if let planPath, let shard {
            do {
                plan = try FlowRunPlan.read(path: planPath).reused(for: shard, names: names, file: planPath)
            } catch {
                throw ShardSelectionError(message: "--plan \(error)")
            }
            durations = [:]
            note = ", split as planned in \(planPath)"
            return
        }
        var durations: [String: Double] = [:]
        if let durationsPath {
            do {
                durations = try loadDurations(durationsPath)
            } catch {
                throw ShardSelectionError(message: "\(error)")
            }
        }
        let count = shard?.count ?? 1
        let planned = FlowShardPlan(flows: names, count: count, durations: durations)
        let balanced = shard != nil && durationsPath != nil
        plan = FlowRunPlan(command: command, shard: shard?.index ?? 1, count: count, split: balanced ? "durations" : "hash",
                           assignment: planned.assignment)
        self.durations = durations
        note = balanced
            ? String(format: ", balanced by earlier durations (expected %.1fs of %.1fs)",
                     planned.expectedLoads[plan.shard - 1], planned.expectedLoads.reduce(0, +))
            : ""
    }
}

/// A `--durations` or `--plan` file that cannot be used.
struct ShardSelectionError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
