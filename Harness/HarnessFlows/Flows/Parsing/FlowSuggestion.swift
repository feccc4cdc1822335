import HarnessSteps
/// "Did you mean" for misspelled commands and keys: the closest candidate by edit distance.
enum FlowSuggestion {
    /// The best candidate for `word`, or nil when none is close.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let lower = word.lowercased()
        guard !lower.isEmpty else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates.sorted() {
            let distance = editDistance(Array(lower), Array(candidate))
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        if let best, best.distance <= max(1, min(2, lower.count / 3)) { return best.name }
        if lower.count >= 3, let prefixed = candidates.sorted().first(where: { $0.hasPrefix(lower) }) {
            return prefixed
        }
        return nil
    }

    /// Levenshtein distance.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
