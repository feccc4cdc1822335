/// Turns a `DecodingError` into one line that says where and what went wrong.
enum DecodingDiagnostics {
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        func path(_ context: DecodingError.Context) -> String {
            let components = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            return "$" + components.joined()
        }
        switch error {
        case .dataCorrupted(let context):
            return "invalid JSON at \(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\" at \(path(context))"
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context)): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "missing \(type) value at \(path(context))"
        @unknown default:
            return String(describing: error)
        }
    }
}
