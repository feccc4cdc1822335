import HarnessSystem

extension SessionCore {
    /// A public wait's ``wait(description:condition:timeout:location:)``: its failure is
    /// reported at `location` when nothing around the wait reports it (``CallSiteFailures``).
    func reportedWait(
        description: String, condition: WaitCondition, timeout: Duration, location: SourceCodeLocation
    ) async throws -> WaitOutcome {
        try await CallSiteFailures.reporting("\(location.filePath)") {
            try await wait(description: description, condition: condition, timeout: timeout, location: location)
        }
    }
}
