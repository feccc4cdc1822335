import Foundation

extension SnapshotStrategy where Value == String, Format == String {
    /// A string as it is, stored in a `.txt` file and compared line by line.
    public static var lines: SnapshotStrategy<String, String> {
        SnapshotStrategy(pathExtension: "txt", diffing: .lines) { $0 }
    }

    /// The same as ``lines``: a plain string.
    public static var string: SnapshotStrategy<String, String> { lines }
}

extension SnapshotStrategy where Format == String {
    /// Any value printed by Swift's `dump`, compared line by line.
    ///
    /// The output names types and fields, so it changes when they are renamed; class instances
    /// are numbered (`#0`), not shown by address, so it is deterministic.
    public static var dump: SnapshotStrategy<Value, String> {
        SnapshotStrategy(pathExtension: "txt", diffing: .lines) { value in
            var text = ""
            Swift.dump(value, to: &text)
            if text.hasSuffix("\n") { text.removeLast() }
            return text
        }
    }
}

extension SnapshotStrategy where Value: Encodable, Format == String {
    /// Any `Encodable` value as pretty-printed JSON with sorted keys (stable across runs), in a
    /// `.json` file, compared line by line.
    public static var json: SnapshotStrategy<Value, String> {
        json(JSONEncoder())
    }

    /// Pretty, sorted-key JSON made by `encoder` (for its date or key strategies); the output
    /// formatting options are added to the encoder's own.
    public static func json(_ encoder: JSONEncoder) -> SnapshotStrategy<Value, String> {
        let formatting = encoder.outputFormatting.union([.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        let dateEncoding = encoder.dateEncodingStrategy
        let dataEncoding = encoder.dataEncodingStrategy
        let keyEncoding = encoder.keyEncodingStrategy
        let floatEncoding = encoder.nonConformingFloatEncodingStrategy
        return SnapshotStrategy(pathExtension: "json", diffing: .lines) { value in
            // A fresh encoder per call: JSONEncoder is a class and the strategy may be reused.
            let encoder = JSONEncoder()
            encoder.outputFormatting = formatting
            encoder.dateEncodingStrategy = dateEncoding
            encoder.dataEncodingStrategy = dataEncoding
            encoder.keyEncodingStrategy = keyEncoding
            encoder.nonConformingFloatEncodingStrategy = floatEncoding
            let data: Data
            do {
                data = try encoder.encode(value)
            } catch {
                throw SnapshotError.encodingFailed(type: String(reflecting: Value.self), reason: "\(error)")
            }
            return String(decoding: data, as: UTF8.self)
        }
    }
}

extension SnapshotStrategy where Format == String {
    /// This strategy with `masks` applied to the text it produces, before comparing and writing.
    ///
    /// A regex mask replaces every character of each match (newlines excepted) with its fill;
    /// a region mask treats lines as rows and characters as columns.
    public func maskingText(_ masks: [SnapshotMask]) -> SnapshotStrategy<Value, String> {
        guard !masks.isEmpty else { return self }
        var masked = self
        let snapshot = self.snapshot
        masked.snapshot = { value in try SnapshotMask.apply(masks, to: snapshot(value)) }
        return masked
    }
}
