import Foundation

/// Whether the running test's apps and sessions are traced, and where their traces go: the one
/// place that decides it. A `.harnessTrace(folder)` trait sets ``traitFolder`` for its scope;
/// without it `HARNESS_ARTIFACTS` names the folder; without either nothing is traced. The test
/// framework glue reads ``folder`` when a test launches an app, a piped app or a session (its
/// journal then records, and its timeline is written when it closes); the step engine sets
/// ``isInsideStep`` while it runs a step, so that the waits and inputs it makes for the step
/// are not journaled besides the step itself. (`harness run --trace` decides which flows of a
/// flow run keep their timeline; a flow run always records one.)
package enum TraceSwitch {
    /// The folder of the `.harnessTrace` trait around the running test, for the trait's scope.
    @TaskLocal package static var traitFolder: String?

    /// True while the step engine runs a step: the waits and inputs it makes are its own, the
    /// step itself is recorded instead.
    @TaskLocal package static var isInsideStep = false

    /// Where the running test's traces go: the trait's folder, else `HARNESS_ARTIFACTS`; nil when
    /// the test is not traced.
    package static var folder: String? {
        if let traitFolder { return traitFolder }
        return ProcessInfo.processInfo.environment[HarnessArtifacts.environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
    }
}
