import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

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
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        return try parse(data, source: path)
    }

    /// Parses a document; `source` names it in errors.
    public static func parse(_ data: Data, source: String = "<junit>") throws(JUnitReadError) -> JUnitReport {
        let document: XMLDocument
        do {
            document = try XMLDocument(data: data, options: [])
        } catch {
            throw .malformedXML(source: source, reason: error.localizedDescription)
        }
        guard let root = document.rootElement() else { throw .malformedXML(source: source, reason: "no root element") }
        switch root.name {
        case "testsuites":
            var suites: [JUnitTestSuite] = []
            for element in children(root, "testsuite") { try collectSuites(element, into: &suites, source: source) }
            return JUnitReport(name: root.attribute(forName: "name")?.stringValue ?? "harness", suites: suites)
        case "testsuite":
            var suites: [JUnitTestSuite] = []
            try collectSuites(root, into: &suites, source: source)
            return JUnitReport(name: root.attribute(forName: "name")?.stringValue ?? "harness", suites: suites)
        default:
            throw .unexpectedRoot(source: source, element: root.name ?? "")
        }
    }

    private static func collectSuites(_ element: XMLElement, into suites: inout [JUnitTestSuite], source: String) throws(JUnitReadError) {
        let name = attribute(element, "name") ?? ""
        var cases: [JUnitTestCase] = []
        for caseElement in children(element, "testcase") {
            guard let caseName = attribute(caseElement, "name") else {
                throw .testCaseWithoutName(source: source, suite: name)
            }
            cases.append(testCase(caseElement, name: caseName))
        }
        suites.append(JUnitTestSuite(
            name: name,
            timestamp: attribute(element, "timestamp"),
            hostname: attribute(element, "hostname"),
            properties: properties(element),
            cases: cases
        ))
        for nested in children(element, "testsuite") { try collectSuites(nested, into: &suites, source: source) }
    }

    private static func testCase(_ element: XMLElement, name: String) -> JUnitTestCase {
        var result = JUnitTestCase.Result.passed
        if let failure = children(element, "failure").first {
            result = .failure(detail(failure))
        } else if let error = children(element, "error").first {
            result = .error(detail(error))
        } else if let skipped = children(element, "skipped").first {
            result = .skipped(message: attribute(skipped, "message"))
        }
        return JUnitTestCase(
            classname: attribute(element, "classname") ?? "",
            name: name,
            file: attribute(element, "file"),
            time: attribute(element, "time").flatMap(Double.init) ?? 0,
            result: result,
            flakyFailures: (children(element, "flakyFailure") + children(element, "flakyError")).map(detail),
            rerunFailures: (children(element, "rerunFailure") + children(element, "rerunError")).map(detail),
            properties: properties(element),
            systemOut: children(element, "system-out").first?.stringValue,
            systemErr: children(element, "system-err").first?.stringValue
        )
    }

    private static func detail(_ element: XMLElement) -> JUnitFailureDetail {
        let body = children(element, "stackTrace").first?.stringValue ?? element.stringValue ?? ""
        return JUnitFailureDetail(
            message: attribute(element, "message") ?? "",
            type: attribute(element, "type") ?? "",
            body: body
        )
    }

    private static func properties(_ element: XMLElement) -> [JUnitProperty] {
        children(element, "properties").flatMap { children($0, "property") }.map {
            JUnitProperty(name: attribute($0, "name") ?? "", value: attribute($0, "value") ?? $0.stringValue ?? "")
        }
    }

    private static func children(_ element: XMLElement, _ name: String) -> [XMLElement] {
        element.elements(forName: name)
    }

    private static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attribute(forName: name)?.stringValue
    }
}
