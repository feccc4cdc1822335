import Foundation
import HarnessSystem

/// Compiled regular expressions, shared and compiled once.
enum RegexCache {
    private static let cache = Locked<[String: NSRegularExpression]>([:])

    /// The compiled `pattern`, or the compile error's description.
    static func compile(_ pattern: String) -> Result<NSRegularExpression, RegexError> {
        if let cached = cache.withLock({ $0[pattern] }) { return .success(cached) }
        do {
            let regex = try NSRegularExpression(pattern: pattern)
            cache.withLock { $0[pattern] = regex }
            return .success(regex)
        } catch {
            return .failure(RegexError(pattern: pattern, reason: "\(error)"))
        }
    }

    /// Whether `pattern` matches the whole of `text` (false when it does not compile).
    static func wholeMatch(_ pattern: String, _ text: String) -> Bool {
        guard case .success(let regex) = compile(pattern) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        guard let match = regex.firstMatch(in: text, options: [.anchored], range: range) else { return false }
        return match.range == range
    }

    /// Whether `pattern` matches somewhere in `text`.
    static func containsMatch(_ pattern: String, _ text: String) -> Bool {
        guard case .success(let regex) = compile(pattern) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

/// A regular expression that does not compile.
struct RegexError: Error, Sendable, CustomStringConvertible {
    let pattern: String
    let reason: String
    var description: String { "invalid regular expression \(pattern): \(reason)" }
}
