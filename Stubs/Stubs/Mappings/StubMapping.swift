import Foundation

/// One stub as a mapping file or the admin API describes it.
public struct StubMapping: Sendable, Hashable {
    /// The id (generated when the mapping has none).
    public var id: StubID
    /// Lower wins; default 5.
    public var priority: Int
    /// Uses before the stub stops matching; nil is unlimited.
    public var uses: Int?
    /// What it matches.
    public var pattern: RequestPattern
    /// What it does.
    public var behaviour: StubBehaviour

    /// Creates a mapping.
    public init(
        id: StubID = .unique(), priority: Int = StubServer.defaultPriority, uses: Int? = nil,
        pattern: RequestPattern, behaviour: StubBehaviour
    ) {
        self.id = id
        self.priority = priority
        self.uses = uses
        self.pattern = pattern
        self.behaviour = behaviour
    }
}

extension StubServer {
    /// Registers a mapping (e.g. one loaded with `StubMappingFile.load(_:)`).
    @discardableResult
    public func stub(_ mapping: StubMapping) -> StubID {
        stub(mapping.pattern, mapping.behaviour, priority: mapping.priority, uses: mapping.uses, id: mapping.id)
    }

    /// Registers `mappings` and makes them what `POST /__admin/reset` restores.
    public func loadMappings(_ mappings: [StubMapping]) {
        core.setInitialMappings(mappings)
        for mapping in mappings { stub(mapping) }
    }
}
