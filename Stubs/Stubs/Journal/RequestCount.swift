/// How many matching requests a verification expects.
public enum RequestCount: Sendable, Hashable, CustomStringConvertible {
    /// Exactly `n`.
    case exactly(Int)
    /// `n` or more.
    case atLeast(Int)
    /// `n` or fewer.
    case atMost(Int)

    /// Exactly one.
    public static var once: RequestCount { .exactly(1) }
    /// None at all.
    public static var never: RequestCount { .exactly(0) }

    /// Whether `count` satisfies the expectation.
    public func isSatisfied(by count: Int) -> Bool {
        switch self {
        case .exactly(let n): return count == n
        case .atLeast(let n): return count >= n
        case .atMost(let n): return count <= n
        }
    }

    /// `exactly 2`, `at least 1`, `at most 3`.
    public var description: String {
        switch self {
        case .exactly(let n): return "exactly \(n)"
        case .atLeast(let n): return "at least \(n)"
        case .atMost(let n): return "at most \(n)"
        }
    }
}
