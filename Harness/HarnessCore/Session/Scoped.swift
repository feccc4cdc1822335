/// Runs `body` with `resource`, then `release`s it, also when `body` throws: the `withX`
/// functions of the sessions are this with their launch and their `terminate`.
func withReleasing<Resource: Sendable, Result>(
    _ resource: Resource,
    isolation: isolated (any Actor)? = #isolation,
    release: (Resource) -> Void,
    _ body: (Resource) async throws -> Result
) async throws -> Result {
    do {
        let result = try await body(resource)
        release(resource)
        return result
    } catch {
        release(resource)
        throw error
    }
}
