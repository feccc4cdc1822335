/// `${NAME}` expansion in the `app` and `env` lines of a flow.
///
/// `${NAME}` is replaced by the variable's value from the runner's environment (for example
/// `app ${HARNESS_PRODUCTS_DIR}/todo`); `$$` is one `$` (so `$${x}` reaches a shell as `${x}`);
/// any other `$` is kept as is. A variable that is not set, or a `${` without its `}`, is an
/// error.
///
/// ```swift
/// try FlowVariables.expand("${HOME}/bin/app", environment: ["HOME": "/home/me"]) // "/home/me/bin/app"
/// try FlowVariables.expand("x=1; echo $${x}", environment: [:])                   // "x=1; echo ${x}"
/// ```
public enum FlowVariables {
    /// `text` with every `${NAME}` replaced and every `$$` made one `$`.
    public static func expand(_ text: String, environment: [String: String]) throws(FlowVariableError) -> String {
        guard text.contains("$") else { return text }
        var result = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let after = rest[rest.index(after: dollar)...]
            switch after.first {
            case "$":
                result += "$"
                rest = after.dropFirst()
            case "{":
                let inside = after.dropFirst()
                guard let close = inside.firstIndex(of: "}") else { throw .unterminated(text) }
                let name = String(inside[..<close])
                guard isValidName(name) else { throw .invalidName(name, in: text) }
                guard let value = environment[name] else { throw .undefined(name, in: text) }
                result += value
                rest = inside[inside.index(after: close)...]
            default:
                result += "$"
                rest = after
            }
        }
        return result + rest
    }

    /// Letters, digits and `_`, not starting with a digit.
    package static func isValidName(_ name: String) -> Bool {
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
            "\"\(text)\": the variable \(name) is not set (write $$ for a $ the program should see: $${\(name)})"
        case .unterminated(let text):
            "\"\(text)\": ${ without a closing } (write $$ for a $ the program should see)"
        case .invalidName(let name, let text):
            "\"\(text)\": \"\(name)\" is not a variable name (letters, digits and _; write $$ for a $ the program should see)"
        }
    }
}
