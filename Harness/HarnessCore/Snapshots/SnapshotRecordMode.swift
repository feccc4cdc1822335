import Foundation

/// When snapshot assertions write reference files, set by the `HARNESS_RECORD` environment
/// variable (or per assertion with the `record:` argument).
///
/// | mode      | reference missing          | reference differs                     | matches |
/// |-----------|----------------------------|---------------------------------------|---------|
/// | `missing` | record it, fail            | fail with a diff                      | pass    |
/// | `failed`  | record it, fail            | overwrite it, fail with a diff        | pass    |
/// | `all`     | record it, fail            | overwrite it, fail with a diff        | rewrite it, fail |
/// | `never`   | fail, record nothing       | fail with a diff                      | pass    |
///
/// Without `HARNESS_RECORD` the mode is `missing`, or `never` when `CI` is set or under Bazel
/// (`TEST_SRCDIR` set: a Bazel test reads its files from a read-only tree), so a CI run never
/// passes by recording.
public enum SnapshotRecordMode: Sendable, CaseIterable, CustomStringConvertible {
    /// Record references that do not exist yet (the default on a developer's machine).
    case missing
    /// Record every snapshot, overwriting the references; every assertion fails so that the
    /// recording is never mistaken for a passing run.
    case all
    /// Record missing references and overwrite the ones that do not match.
    case failed
    /// Never write a reference (the default when `CI` is set, and under Bazel).
    case never

    /// The environment variable that sets the mode.
    package static let environmentVariable = "HARNESS_RECORD"

    /// The mode `environment` asks for: `HARNESS_RECORD` when set and not empty, otherwise
    /// `never` when `CI` or Bazel's `TEST_SRCDIR` is set, otherwise `missing`.
    /// - Throws: ``SnapshotError/invalidRecordMode(_:)`` for an unknown value.
    package static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(SnapshotError) -> SnapshotRecordMode {
        if let value = environment[environmentVariable], !value.isEmpty {
            guard let mode = SnapshotRecordMode(named: value) else {
                throw SnapshotError.invalidRecordMode(value)
            }
            return mode
        }
        if let ci = environment["CI"], !ci.isEmpty { return .never }
        if let bazel = environment[bazelTestVariable], !bazel.isEmpty { return .never }
        return .missing
    }

    /// The variable Bazel sets for every test it runs (the runfiles' root).
    package static let bazelTestVariable = "TEST_SRCDIR"

    /// The mode `name` spells (`missing`, `all`, `failed`, `never`, in any case), or nil.
    package init?(named name: String) {
        guard let mode = Self.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = mode
    }

    /// The mode's name, as `HARNESS_RECORD` spells it.
    public var description: String {
        switch self {
        case .missing: "missing"
        case .all: "all"
        case .failed: "failed"
        case .never: "never"
        }
    }

    /// Whether a missing reference is written.
    var recordsMissing: Bool { self != .never }
}
