import Foundation
import HarnessCore
import HarnessSteps

/// Why a JUnit file could not be read.
public enum JUnitReadError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened.
    case unreadable(path: String, reason: String)
    /// Not well-formed XML.
    case malformedXML(source: String, reason: String)
    /// The root element is neither `<testsuites>` nor `<testsuite>`.
    case unexpectedRoot(source: String, element: String)
    /// A `<testcase>` without a `name`.
    case testCaseWithoutName(source: String, suite: String)

    /// A message for the user.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .malformedXML(let source, let reason): "\(source): not well-formed XML: \(reason)"
        case .unexpectedRoot(let source, let element): "\(source): root element <\(element)> is not <testsuites> or <testsuite>"
        case .testCaseWithoutName(let source, let suite): "\(source): a <testcase> in suite \"\(suite)\" has no name"
        }
    }
}

/// Reads JUnit XML (ours, Surefire's, and the usual CI dialects) into a ``JUnitReport``.
///
/// Understands `<testsuites>` or a single `<testsuite>` root, nested suites (flattened),
/// `<failure>`, `<error>`, `<skipped>`, Surefire's `<flakyFailure>`/`<flakyError>` and
/// `<rerunFailure>`/`<rerunError>`, `<properties>`, `<system-out>` and `<system-err>`.
/// Unknown elements and attributes are ignored.
public enum JUnitReader {
    /// Reads the file at `path`.
    public static func read(path: String) throws(JUnitReadError) -> JUnitReport {
        let data = try ReportFile.contents(of: path, orThrow: JUnitReadError.unreadable)
        return try parse(data, source: path)
    }

    /// Parses a document; `source` names it in errors.
    public static func parse(_ data: Data, source: String = "<junit>") throws(JUnitReadError) -> JUnitReport {
        let root: JUnitXMLElement
        switch JUnitXMLElement.parse(data) {
        case .success(let element): root = element
        case .failure(let error): throw .malformedXML(source: source, reason: error.reason)
        }
        switch root.name {
        case "testsuites":
            var suites: [JUnitTestSuite] = []
            for element in root.elements(named: "testsuite") { try collectSuites(element, into: &suites, source: source) }
            return JUnitReport(name: root.attributes["name"] ?? "harness", suites: suites)
        case "testsuite":
            var suites: [JUnitTestSuite] = []
            try collectSuites(root, into: &suites, source: source)
            return JUnitReport(name: root.attributes["name"] ?? "harness", suites: suites)
        default:
            throw .unexpectedRoot(source: source, element: root.name)
        }
    }

    private static func collectSuites(_ element: JUnitXMLElement, into suites: inout [JUnitTestSuite], source: String) throws(JUnitReadError) {
        let name = element.attributes["name"] ?? ""
        var cases: [JUnitTestCase] = []
        for caseElement in element.elements(named: "testcase") {
            guard let caseName = caseElement.attributes["name"] else {
                throw .testCaseWithoutName(source: source, suite: name)
            }
            cases.append(testCase(caseElement, name: caseName))
        }
        suites.append(JUnitTestSuite(
            name: name,
            timestamp: element.attributes["timestamp"],
            hostname: element.attributes["hostname"],
            properties: properties(element),
            cases: cases
        ))
        for nested in element.elements(named: "testsuite") { try collectSuites(nested, into: &suites, source: source) }
    }

    private static func testCase(_ element: JUnitXMLElement, name: String) -> JUnitTestCase {
        var result = JUnitTestCase.Result.passed
        if let failure = element.elements(named: "failure").first {
            result = .failure(detail(failure))
        } else if let error = element.elements(named: "error").first {
            result = .error(detail(error))
        } else if let skipped = element.elements(named: "skipped").first {
            result = .skipped(message: skipped.attributes["message"])
        }
        return JUnitTestCase(
            classname: element.attributes["classname"] ?? "",
            name: name,
            file: element.attributes["file"],
            time: element.attributes["time"].flatMap(Double.init) ?? 0,
            result: result,
            flakyFailures: (element.elements(named: "flakyFailure") + element.elements(named: "flakyError")).map(detail),
            rerunFailures: (element.elements(named: "rerunFailure") + element.elements(named: "rerunError")).map(detail),
            properties: properties(element),
            systemOut: element.elements(named: "system-out").first?.text,
            systemErr: element.elements(named: "system-err").first?.text
        )
    }

    private static func detail(_ element: JUnitXMLElement) -> JUnitFailureDetail {
        JUnitFailureDetail(
            message: element.attributes["message"] ?? "",
            type: element.attributes["type"] ?? "",
            body: element.elements(named: "stackTrace").first?.text ?? element.text
        )
    }

    private static func properties(_ element: JUnitXMLElement) -> [JUnitProperty] {
        element.elements(named: "properties").flatMap { $0.elements(named: "property") }.map {
            JUnitProperty(name: $0.attributes["name"] ?? "", value: $0.attributes["value"] ?? $0.text)
        }
    }
}
