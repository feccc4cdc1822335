import Foundation

extension SnapshotStrategy where Value == Data, Format == Data {
    /// A program's output as it is: the reference `.txt` file holds exactly the bytes (no frame,
    /// no final newline added), like trycmd and snapbox goldens. Differences are shown as a
    /// unified line diff when both sides are UTF-8 text (see ``SnapshotDiffing/rawText``).
    ///
    /// ```swift
    /// let output = try await session.waitForExit()
    /// assertSnapshot(of: output.standardOutputData, as: .rawText, named: "help")
    /// ```
    public static var rawText: SnapshotStrategy<Data, Data> {
        SnapshotStrategy(pathExtension: "txt", diffing: .rawText) { $0 }
    }
}

extension SnapshotDiffing where Format == Data {
    /// Bytes stored as they are and compared byte for byte. A difference is described as a
    /// unified diff of the lines when both sides are UTF-8 (with a note when only one ends with
    /// a newline), otherwise by the sizes and the first differing byte.
    public static var rawText: SnapshotDiffing<Data> {
        SnapshotDiffing(
            toData: { $0 },
            fromData: { $0 },
            diff: { reference, actual in
                reference == actual ? nil : RawTextDifference.describe(reference: reference, actual: actual)
            }
        )
    }
}

/// How two byte strings that should be equal differ, for messages.
package enum RawTextDifference {
    /// A unified diff of the lines when both are UTF-8, else sizes and the first differing byte.
    package static func describe(reference: Data, actual: Data) -> String {
        guard let referenceText = String(validating: reference, as: UTF8.self),
              let actualText = String(validating: actual, as: UTF8.self)
        else {
            let common = zip(reference, actual).prefix { $0 == $1 }.count
            let window = { (data: Data) in PrintableBytes.escape(data.dropFirst(common).prefix(40)) }
            return "reference: \(reference.count) bytes, actual: \(actual.count) bytes (not both UTF-8 text); "
                + "they differ from byte \(common): reference \"\(window(reference))\", actual \"\(window(actual))\""
        }
        let (referenceLines, referenceEndsLine) = withoutFinalNewline(referenceText)
        let (actualLines, actualEndsLine) = withoutFinalNewline(actualText)
        var lines = ["--- reference", "+++ actual"]
        if let hunks = LineDiff.unified(reference: referenceLines, actual: actualLines) { lines.append(hunks) }
        if referenceEndsLine != actualEndsLine {
            lines.append(actualEndsLine ? "\\ the reference has no newline at its end, the actual text has one"
                                        : "\\ the actual text has no newline at its end, the reference has one")
        }
        if lines.count == 2 { lines.append("(the texts differ in their Unicode representation only)") }
        return lines.joined(separator: "\n")
    }

    /// The text without one final newline, and whether it had one.
    private static func withoutFinalNewline(_ text: String) -> (String, Bool) {
        text.utf8.last == 0x0A ? (String(decoding: text.utf8.dropLast(), as: UTF8.self), true) : (text, false)
    }
}
