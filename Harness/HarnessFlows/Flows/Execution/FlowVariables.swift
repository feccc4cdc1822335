/// `${NAME}` expansion in the `app` and `env` lines of a flow.
///
/// `${NAME}` is replaced by the variable's value from the runner's environment (for example
/// `app ${HARNESS_PRODUCTS_DIR}/todo`); a `$` not followed by `{` is kept as is. A variable
/// that is not set, or a `${` without its `}`, is an error.
///
/// ```swift
/// try FlowVariables.expand("${HOME}/bin/app", environment: ["HOME": "/home/me"]) // "/home/me/bin/app"
/// ```
public enum FlowVariables {
    /// `text` with every `${NAME}` replaced.
    public static func expand(_ text: String, environment: [String: String]) throws(FlowVariableError) -> String {
        guard text.contains("${") else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            result += rest[..<start.lowerBound]
            let afterOpen = rest[start.upperBound...]
            guard let close = afterOpen.firstIndex(of: "}") else { throw .unterminated(text) }
            let name = String(afterOpen[..<close])
            guard isValidName(name) else { throw .invalidName(name, in: text) }
            guard let value = environment[name] else { throw .undefined(name, in: text) }
            result += value
            rest = afterOpen[afterOpen.index(after: close)...]
        }
        return result + rest
    }

    /// Letters, digits and `_`, not starting with a digit.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}

/// A `${...}` that cannot be expanded.
public enum FlowVariableError: Error, Equatable, CustomStringConvertible {
    /// The variable is not set in the runner's environment.
    case undefined(String, in: String)
    /// `${` without a closing `}`.
    case unterminated(String)
    /// `${...}` holds something that is not a variable name.
    case invalidName(String, in: String)

    /// A message for the user.
    public var description: String {
        switch self {
        case .undefined(let name, let text):
            "\"\(text)\": the variable \(name) is not set"
        case .unterminated(let text):
            "\"\(text)\": ${ without a closing }"
        case .invalidName(let name, let text):
            "\"\(text)\": \"\(name)\" is not a variable name (letters, digits and _)"
        }
    }
}
