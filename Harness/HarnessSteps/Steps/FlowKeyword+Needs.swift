extension FlowKeyword {
    /// What a command needs from the run: the executor's launch protocol, the stub server and
    /// the checks of pipes runs derive from it.
    public struct Needs: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// The program's terminal: an error in a flow that launches with pipes.
        public static let terminal = Needs(rawValue: 1 << 0)
        /// A pipes run: an error in a flow that launches in a terminal.
        public static let pipes = Needs(rawValue: 1 << 1)
        /// The bridge into the app (launch protocol `.bridge`).
        public static let bridge = Needs(rawValue: 1 << 2)
        /// The launch options without a bridge (launch protocol `.arguments`).
        public static let launchOptions = Needs(rawValue: 1 << 3)
        /// The flow's stub HTTP server.
        public static let stubServer = Needs(rawValue: 1 << 4)
        /// Files beside the flow (checked to exist when the flow is loaded).
        public static let files = Needs(rawValue: 1 << 5)
    }
}
