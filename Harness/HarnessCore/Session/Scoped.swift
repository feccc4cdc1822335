/// Runs `body` with `resource`, then `release`s it, also when `body` throws: the `withX`
/// functions of the sessions are this with their launch and their teardown, awaited.
func withReleasing<Resource: Sendable, Result>(
    _ resource: Resource,
    isolation: isolated (any Actor)? = #isolation,
    release: (Resource) async -> Void,
    _ body: (Resource) async throws -> Result
) async throws -> Result {
    do {
        let result = try await body(resource)
        await release(resource)
        return result
    } catch {
        await release(resource)
        throw error
    }
}
