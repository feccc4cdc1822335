import TerminalEmulator

extension SnapshotMask {
    /// `text` with every mask applied in order: regex matches and region characters replaced by
    /// the mask's fill, one fill per character; newlines are kept.
    package static func apply(_ masks: [SnapshotMask], to text: String) throws(SnapshotError) -> String {
        var text = text
        for mask in masks {
            switch mask {
            case let .regex(pattern, fill):
                let regex = try compile(pattern)
                var result = ""
                var position = text.startIndex
                for match in text.matches(of: regex) where !match.range.isEmpty {
                    result += text[position..<match.range.lowerBound]
                    result += String(text[match.range].map { $0.isNewline ? $0 : fill })
                    position = match.range.upperBound
                }
                result += text[position...]
                text = result
            case let .region(region, fill):
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
                let top = max(0, region.row), bottom = min(lines.count, region.row + max(0, region.height))
                if top < bottom {
                    for row in top..<bottom {
                        let left = max(0, region.col), right = min(lines[row].count, region.col + max(0, region.width))
                        if left < right {
                            for col in left..<right { lines[row][col] = fill }
                        }
                    }
                }
                text = lines.map { String($0) }.joined(separator: "\n")
            }
        }
        return text
    }
}
