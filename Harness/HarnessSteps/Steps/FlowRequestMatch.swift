import HarnessCore

/// What a `stub` route or an `expect-request` line asks of a request besides its method and
/// path: query parameters, headers and the body (`query NAME ...`, `header NAME ...`,
/// `body json FILE|body contains "..."|body /regex/`). Empty: any request on the method and path.
public struct FlowRequestMatch: Sendable, Hashable {
    /// The conditions on query parameters, in the order written.
    public var query: [FlowNamedMatch] = []
    /// The conditions on headers (names compared without case), in the order written.
    public var headers: [FlowNamedMatch] = []
    /// The condition on the body, if any.
    public var body: FlowBodyMatch?

    /// A match with no condition.
    public init() {}

    /// Whether the match adds no condition.
    public var isEmpty: Bool { query.isEmpty && headers.isEmpty && body == nil }

    /// The conditions as a flow writes them (after the path).
    public var flowText: String { words.joined(separator: " ") }

    /// The conditions as a flow writes them, one argument per element.
    package var words: [String] {
        query.flatMap { ["query"] + $0.words } + headers.flatMap { ["header"] + $0.words } + (body?.words ?? [])
    }

    /// The file the body condition names, if any.
    package var file: FlowFileReference? {
        if case .json(let file) = body { return file }
        return nil
    }
}

/// A condition on a named query parameter or header.
public struct FlowNamedMatch: Sendable, Hashable {
    /// The parameter's or header's name.
    public var name: String
    /// What its value must be.
    public var value: FlowValueMatch

    /// Creates a condition (the parser makes them).
    package init(name: String, value: FlowValueMatch) { (self.name, self.value) = (name, value) }

    package var words: [String] { [FlowCommand.word(name)] + value.words }
}

/// How a query parameter's or header's value must look.
public enum FlowValueMatch: Sendable, Hashable {
    /// `"VALUE"`: equal to the text.
    case equals(String)
    /// `contains "TEXT"`: contains the text.
    case contains(String)
    /// `/regex/`: the whole value matches.
    case regex(String)

    package var words: [String] {
        switch self {
        case .equals(let text): [FlowStringLiteral.quote(text)]
        case .contains(let text): ["contains", FlowStringLiteral.quote(text)]
        case .regex(let pattern): [FlowTextPattern.regex(pattern).description]
        }
    }
}

/// How a request's body must look.
public enum FlowBodyMatch: Sendable, Hashable {
    /// `body json FILE`: JSON structurally equal to the file's (key order and spaces ignored).
    case json(FlowFileReference)
    /// `body contains "TEXT"`: the body, read as UTF-8, contains the text.
    case contains(String)
    /// `body /regex/`: the whole body, read as UTF-8, matches.
    case regex(String)

    /// `body` and the condition, written as a value's (``FlowValueMatch``) but for `json FILE`.
    package var words: [String] {
        switch self {
        case .json(let file): ["body", "json", FlowCommand.word(file.written)]
        case .contains(let text): ["body"] + FlowValueMatch.contains(text).words
        case .regex(let pattern): ["body"] + FlowValueMatch.regex(pattern).words
        }
    }
}

/// An `expect-request` line: the requests the app must have sent.
public struct FlowRequestExpectation: Sendable, Hashable {
    /// The HTTP method, upper case.
    public var method: String
    /// The path, starting with `/` (each query parameter written after `?` must be there too).
    public var path: String
    /// The other conditions.
    public var match: FlowRequestMatch
    /// Exactly this many such requests; nil: at least one.
    public var count: Int?

    /// Creates an expectation (the parser makes them).
    package init(method: String, path: String, match: FlowRequestMatch, count: Int?) {
        (self.method, self.path, self.match, self.count) = (method, path, match, count)
    }
}
