import Foundation
import HarnessCore
import HarnessSteps

/// Prints a ``JUnitReport`` as JUnit XML (the Ant/Surefire dialect CI servers read).
///
/// ```swift
/// try JUnitWriter.write(JUnitReport(results: results), to: "report.xml")
/// ```
public enum JUnitWriter {
    /// The XML document.
    public static func xml(for report: JUnitReport) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites\(attributes([("name", report.name)]))\(counts(tests: report.tests, failures: report.failures, errors: report.errors, skipped: report.skipped, time: report.time))>\n"
        for suite in report.suites {
            var suiteAttributes = [("name", suite.name)]
            if let timestamp = suite.timestamp { suiteAttributes.append(("timestamp", timestamp)) }
            if let hostname = suite.hostname { suiteAttributes.append(("hostname", hostname)) }
            out += "  <testsuite\(attributes(suiteAttributes))\(counts(tests: suite.tests, failures: suite.failures, errors: suite.errors, skipped: suite.skipped, time: suite.time))>\n"
            out += properties(suite.properties, indent: "    ")
            for testCase in suite.cases { out += self.testCase(testCase) }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// Writes the document to `path` (atomically).
    public static func write(_ report: JUnitReport, to path: String) throws {
        try Data(xml(for: report).utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    private static func testCase(_ testCase: JUnitTestCase) -> String {
        var caseAttributes = [("name", testCase.name), ("classname", testCase.classname)]
        if let file = testCase.file { caseAttributes.append(("file", file)) }
        caseAttributes.append(("time", seconds(testCase.time)))
        var out = "    <testcase\(attributes(caseAttributes))>\n"
        out += properties(testCase.properties, indent: "      ")
        switch testCase.result {
        case .passed:
            break
        case .failure(let detail):
            out += "      <failure\(attributes([("message", detail.message), ("type", detail.type)]))>\(XMLEscaping.text(detail.body))</failure>\n"
        case .error(let detail):
            out += "      <error\(attributes([("message", detail.message), ("type", detail.type)]))>\(XMLEscaping.text(detail.body))</error>\n"
        case .skipped(let message):
            out += "      <skipped\(attributes(message.map { [("message", $0)] } ?? []))/>\n"
        }
        for detail in testCase.rerunFailures { out += rerun("rerunFailure", detail) }
        for detail in testCase.flakyFailures { out += rerun("flakyFailure", detail) }
        if let systemOut = testCase.systemOut { out += "      <system-out>\(XMLEscaping.text(systemOut))</system-out>\n" }
        if let systemErr = testCase.systemErr { out += "      <system-err>\(XMLEscaping.text(systemErr))</system-err>\n" }
        out += "    </testcase>\n"
        return out
    }

    private static func rerun(_ element: String, _ detail: JUnitFailureDetail) -> String {
        "      <\(element)\(attributes([("message", detail.message), ("type", detail.type)]))><stackTrace>\(XMLEscaping.text(detail.body))</stackTrace></\(element)>\n"
    }

    private static func properties(_ properties: [JUnitProperty], indent: String) -> String {
        guard !properties.isEmpty else { return "" }
        var out = "\(indent)<properties>\n"
        for property in properties {
            out += "\(indent)  <property\(attributes([("name", property.name), ("value", property.value)]))/>\n"
        }
        return out + "\(indent)</properties>\n"
    }

    private static func counts(tests: Int, failures: Int, errors: Int, skipped: Int, time: Double) -> String {
        attributes([("tests", "\(tests)"), ("failures", "\(failures)"), ("errors", "\(errors)"),
                    ("skipped", "\(skipped)"), ("time", seconds(time))])
    }

    private static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(XMLEscaping.attribute($0.1))\"" }.joined()
    }

    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }
}
