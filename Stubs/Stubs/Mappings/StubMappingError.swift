import Foundation

/// An invalid mapping file or admin request: every problem with its JSON path.
public struct StubMappingError: Error, Sendable, CustomStringConvertible {
    /// One problem.
    public struct Issue: Sendable, Hashable, CustomStringConvertible {
        /// Where, e.g. `$.mappings[2].response.status`.
        public let path: String
        /// What is wrong.
        public let problem: String
        /// `$.mappings[2].response.status: expected an integer from 100 to 599, found "abc"`.
        public var description: String { "\(path): \(problem)" }
    }

    /// The file (or `admin request`).
    public let source: String
    /// The problems, in document order.
    public let issues: [Issue]

    /// One line per problem, each starting with the file name.
    public var description: String {
        issues.map { "\(source): \($0)" }.joined(separator: "\n")
    }
}
