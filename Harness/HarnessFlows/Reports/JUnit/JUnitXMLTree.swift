import Foundation
import HarnessCore
#if canImport(FoundationXML)
import FoundationXML
import HarnessSteps
#endif

/// A minimal element tree built with the streaming `XMLParser`, which (unlike `XMLDocument` on
/// Linux) rejects malformed input instead of repairing it or crashing on it.
struct JUnitXMLElement {
    var name: String
    var attributes: [String: String]
    var children: [JUnitXMLElement] = []
    /// The element's own text (character data directly inside it).
    var text = ""

    func elements(named name: String) -> [JUnitXMLElement] { children.filter { $0.name == name } }

    /// Parses `data`; the error string says what and where.
    static func parse(_ data: Data) -> Result<JUnitXMLElement, JUnitXMLSyntaxError> {
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let succeeded = parser.parse()
        if let error = parser.parserError ?? builder.error {
            let code = (error as NSError).code
            return .failure(JUnitXMLSyntaxError(reason: "XML error \(code) near line \(parser.lineNumber), column \(parser.columnNumber)"))
        }
        guard succeeded, let root = builder.root else {
            return .failure(JUnitXMLSyntaxError(reason: "no root element"))
        }
        return .success(root)
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [JUnitXMLElement] = []
        var root: JUnitXMLElement?
        var error: Error?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            stack.append(JUnitXMLElement(name: elementName, attributes: attributes))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            guard let element = stack.popLast() else { return }
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if !stack.isEmpty { stack[stack.count - 1].text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if !stack.isEmpty { stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self) }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if error == nil { error = parseError }
        }
    }
}

/// Why XML could not be parsed.
struct JUnitXMLSyntaxError: Error {
    var reason: String
}
