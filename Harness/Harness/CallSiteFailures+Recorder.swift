import HarnessSystem

/// The test framework's side of ``CallSiteFailures``: a failed wait that nothing around it
/// reports is recorded at its line by ``FailureReporter``, and stops the test with the error
/// Swift Testing does not record again.
extension CallSiteFailures.Recorder: CallSiteFailureRecording {
    package static func recorded(_ error: any SourceLocatedError) async -> (any Error)? {
        await FailureReporter.recordedAtItsLine(error)
    }
}
