import HarnessCore

extension SnapshotMatrix.Case {
    /// Launches, reaches the sample, and asserts the screen (with its style layer) against
    /// the snapshot named ``name`` beside the calling test.
    public func assertSnapshot(
        launching launch: AppLaunch,
        masks: [SnapshotMask] = [],
        record: SnapshotRecordMode? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        function: String = #function, line: UInt = #line, column: UInt = #column
    ) async throws {
        let screen = try await screen(launching: launch)
        Harness.assertSnapshot(
            of: screen, as: .screen(masks: masks, style: true), named: name, record: record,
            fileID: fileID, filePath: filePath, function: function, line: line, column: column
        )
    }
}
