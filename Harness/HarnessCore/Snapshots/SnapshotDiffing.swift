import Foundation

/// How a snapshot format is stored on disk and compared with its reference.
///
/// `toData`/`fromData` turn a format value into the bytes of the reference file and back;
/// `diff(reference, actual)` returns `nil` when they match, otherwise a readable description
/// of the difference (for text: unified-diff hunks).
///
/// ```swift
/// let lines = SnapshotDiffing<String>.lines
/// lines.diff("a\nb", "a\nc")   // "@@ -1,2 +1,2 @@\n a\n-b\n+c"
/// ```
public struct SnapshotDiffing<Format> {
    /// The bytes written to the reference file.
    public var toData: (Format) -> Data
    /// The format read back from a reference file; `nil` when the bytes are not valid for it.
    public var fromData: (Data) -> Format?
    /// `nil` when `reference` and `actual` match, otherwise what differs.
    public var diff: (_ reference: Format, _ actual: Format) -> String?

    /// Creates a diffing from its three functions.
    public init(
        toData: @escaping (Format) -> Data,
        fromData: @escaping (Data) -> Format?,
        diff: @escaping (_ reference: Format, _ actual: Format) -> String?
    ) {
        self.toData = toData
        self.fromData = fromData
        self.diff = diff
    }
}

extension SnapshotDiffing where Format == String {
    /// Text stored as UTF-8 with one final newline, compared line by line, differences shown as
    /// a unified diff with three lines of context (reference lines `-`, actual lines `+`).
    public static var lines: SnapshotDiffing<String> {
        SnapshotDiffing(
            toData: { Data(($0 + "\n").utf8) },
            fromData: { data in
                guard var text = String(data: data, encoding: .utf8) else { return nil }
                if text.hasSuffix("\r\n") {
                    text.removeLast()
                } else if text.hasSuffix("\n") {
                    text.removeLast()
                }
                return text
            },
            diff: { reference, actual in
                guard reference != actual else { return nil }
                let hunks = LineDiff.unified(reference: reference, actual: actual)
                    ?? "(the texts differ in their Unicode representation only)"
                return "--- reference\n+++ actual\n" + hunks
            }
        )
    }
}
