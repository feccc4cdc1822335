/// Substring searches over bytes, for the checks a wait repeats on every chunk the
/// program writes. Foundation's `contains` on Linux goes through `NSString` (a copy to UTF-16
/// and a search with options) and Swift's `ranges(of:)` compares characters; on a program that
/// prints fast those were most of the time a screen wait took. When the text and the line are
/// both ASCII, no character can combine with its neighbour, so comparing bytes gives the same
/// answer; otherwise the callers fall back to the character-aware search.
package enum ByteSearch {
    /// Whether `haystack` contains `needle`, when both are ASCII; nil when either is not (the
    /// caller decides with a character-aware search).
    package static func asciiContains(_ haystack: String, _ needle: String) -> Bool? {
        var haystack = haystack, needle = needle
        return haystack.withUTF8 { hay in
            needle.withUTF8 { pattern -> Bool? in
                guard isASCII(pattern), isASCII(hay) else { return nil }
                return firstIndex(of: pattern, in: hay) != nil
            }
        }
    }

    /// Whether every byte is below 0x80.
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var union: UInt8 = 0
        for byte in bytes { union |= byte }
        return union < 0x80
    }

    /// The index of the first occurrence of `pattern` in `bytes` at or after `start`, or nil.
    package static func firstIndex(
        of pattern: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0
    ) -> Int? {
        let length = pattern.count
        guard length > 0, bytes.count >= length else { return length == 0 ? start : nil }
        let first = pattern[0]
        var index = max(0, start)
        let last = bytes.count - length
        while index <= last {
            if bytes[index] == first {
                var matched = 1
                while matched < length && bytes[index + matched] == pattern[matched] { matched += 1 }
                if matched == length { return index }
            }
            index += 1
        }
        return nil
    }
}
