import HarnessSteps
/// A JUnit XML report: the model the writer prints, the reader fills and `merge-junit` combines.
///
/// Counts are computed from the test cases (not trusted from attributes), so merged reports
/// always add up.
public struct JUnitReport: Sendable, Hashable {
    /// The `<testsuites name>`.
    public var name: String
    /// The suites.
    public var suites: [JUnitTestSuite]

    /// Creates a report.
    public init(name: String = "harness", suites: [JUnitTestSuite] = []) {
        self.name = name
        self.suites = suites
    }

    /// Every test case.
    public var tests: Int { suites.reduce(0) { $0 + $1.tests } }
    /// Cases that failed.
    public var failures: Int { suites.reduce(0) { $0 + $1.failures } }
    /// Cases that errored.
    public var errors: Int { suites.reduce(0) { $0 + $1.errors } }
    /// Cases skipped.
    public var skipped: Int { suites.reduce(0) { $0 + $1.skipped } }
    /// Cases that passed after failing (with `flakyFailure` elements).
    public var flaky: Int { suites.reduce(0) { $0 + $1.flaky } }
    /// The suites' time, seconds.
    public var time: Double { suites.reduce(0) { $0 + $1.time } }
}

/// A `<testsuite>`.
public struct JUnitTestSuite: Sendable, Hashable {
    /// The suite's name.
    public var name: String
    /// ISO 8601 start time, if recorded.
    public var timestamp: String?
    /// The machine, if recorded.
    public var hostname: String?
    /// Suite properties.
    public var properties: [JUnitProperty]
    /// The test cases.
    public var cases: [JUnitTestCase]

    /// Creates a suite.
    public init(name: String, timestamp: String? = nil, hostname: String? = nil, properties: [JUnitProperty] = [], cases: [JUnitTestCase] = []) {
        self.name = name
        self.timestamp = timestamp
        self.hostname = hostname
        self.properties = properties
        self.cases = cases
    }

    /// Number of cases.
    public var tests: Int { cases.count }
    /// Cases with `<failure>`.
    public var failures: Int { cases.filter { if case .failure = $0.result { true } else { false } }.count }
    /// Cases with `<error>`.
    public var errors: Int { cases.filter { if case .error = $0.result { true } else { false } }.count }
    /// Cases with `<skipped>`.
    public var skipped: Int { cases.filter { if case .skipped = $0.result { true } else { false } }.count }
    /// Passed cases with flaky failures.
    public var flaky: Int { cases.filter { $0.result == .passed && !$0.flakyFailures.isEmpty }.count }
    /// Sum of the cases' times.
    public var time: Double { cases.reduce(0) { $0 + $1.time } }
}

/// A `<testcase>`.
public struct JUnitTestCase: Sendable, Hashable {
    /// The class (for flows: the folder, dots for slashes).
    public var classname: String
    /// The name (for flows: the file name without `.flow`).
    public var name: String
    /// The source file, if recorded.
    public var file: String?
    /// Seconds.
    public var time: Double
    /// The final verdict.
    public var result: Result
    /// Failed attempts before a final pass (Surefire's `<flakyFailure>`).
    public var flakyFailures: [JUnitFailureDetail]
    /// Failed attempts after the first of a case that never passed (Surefire's `<rerunFailure>`).
    public var rerunFailures: [JUnitFailureDetail]
    /// Case properties.
    public var properties: [JUnitProperty]
    /// `<system-out>` text.
    public var systemOut: String?
    /// `<system-err>` text.
    public var systemErr: String?

    /// Creates a case.
    public init(
        classname: String, name: String, file: String? = nil, time: Double, result: Result = .passed,
        flakyFailures: [JUnitFailureDetail] = [], rerunFailures: [JUnitFailureDetail] = [],
        properties: [JUnitProperty] = [], systemOut: String? = nil, systemErr: String? = nil
    ) {
        self.classname = classname
        self.name = name
        self.file = file
        self.time = time
        self.result = result
        self.flakyFailures = flakyFailures
        self.rerunFailures = rerunFailures
        self.properties = properties
        self.systemOut = systemOut
        self.systemErr = systemErr
    }

    /// A case's verdict.
    public enum Result: Sendable, Hashable {
        /// Passed.
        case passed
        /// An assertion failed.
        case failure(JUnitFailureDetail)
        /// An unexpected error.
        case error(JUnitFailureDetail)
        /// Not run, with an optional reason.
        case skipped(message: String?)
    }
}

/// A failure's `message` and `type` attributes and its text.
public struct JUnitFailureDetail: Sendable, Hashable {
    /// The one-line message.
    public var message: String
    /// The kind of failure.
    public var type: String
    /// The full text (message, position, screen, artifacts).
    public var body: String

    /// Creates a failure detail.
    public init(message: String, type: String, body: String) {
        self.message = message
        self.type = type
        self.body = body
    }
}

/// A `<property name value>`.
public struct JUnitProperty: Sendable, Hashable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String

    /// Creates a property.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
