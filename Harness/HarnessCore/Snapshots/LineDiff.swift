/// A line diff of two texts, printed as unified-diff hunks (`@@ -a,b +c,d @@`).
///
/// Uses Myers' O((N+M)·D) shortest-edit-script algorithm over lines, so the output is a
/// minimal diff: reference lines that are gone are prefixed `-`, new actual lines `+`, and
/// unchanged lines kept as context are prefixed with a space.
///
/// ```swift
/// LineDiff.unified(reference: "a\nb\nc", actual: "a\nB\nc")
/// // @@ -1,3 +1,3 @@
/// //  a
/// // -b
/// // +B
/// //  c
/// ```
public enum LineDiff {
    /// One line of an edit script.
    package enum Edit: Equatable, Sendable {
        /// A line present in both texts: its index in the reference and in the actual text.
        case same(reference: Int, actual: Int)
        /// A reference line that is not in the actual text.
        case removed(reference: Int)
        /// An actual line that is not in the reference.
        case inserted(actual: Int)
    }

    /// Beyond this many differing lines the script is no longer searched for the shortest one:
    /// the differing middle is shown as removed, then inserted (bounded time and memory).
    package static let maximumEditDistance = 1000

    /// The shortest edit script turning `reference` into `actual`, line by line, in order.
    package static func edits(reference: [Substring], actual: [Substring]) -> [Edit] {
        // Common prefix and suffix first: cheap, and what is left is usually small.
        var prefix = 0
        while prefix < reference.count, prefix < actual.count, reference[prefix] == actual[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < reference.count - prefix, suffix < actual.count - prefix,
              reference[reference.count - 1 - suffix] == actual[actual.count - 1 - suffix] {
            suffix += 1
        }
        let old = reference[prefix..<(reference.count - suffix)]
        let new = actual[prefix..<(actual.count - suffix)]

        var result = (0..<prefix).map { Edit.same(reference: $0, actual: $0) }
        result += middleEdits(old, new) ?? (old.indices.map { .removed(reference: $0) } + new.indices.map { .inserted(actual: $0) })
        result += (0..<suffix).map { Edit.same(reference: reference.count - suffix + $0, actual: actual.count - suffix + $0) }
        return result
    }

    /// Myers' search on two slices (indices kept from the whole arrays); `nil` when the shortest
    /// script is longer than ``maximumEditDistance``.
    private static func middleEdits(_ old: ArraySlice<Substring>, _ new: ArraySlice<Substring>) -> [Edit]? {
        let n = old.count, m = new.count
        let oldBase = old.startIndex, newBase = new.startIndex
        let maxD = min(n + m, maximumEditDistance)
        guard n + m > 0 else { return [] }
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        // trace[d] holds v[-d...d] as it was before step d.
        var trace: [[Int]] = []
        var found = false

        search: for d in 0...maxD {
            trace.append(Array(v[(offset - d)...(offset + d)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]          // down: an insertion
                } else {
                    x = v[offset + k - 1] + 1      // right: a removal
                }
                var y = x - k
                while x < n, y < m, old[oldBase + x] == new[newBase + y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n, y >= m {
                    found = true
                    break search
                }
            }
        }
        guard found else { return nil }

        // Walk the trace backwards to recover the path.
        var result: [Edit] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let saved = trace[d]
            let at = { (k: Int) -> Int in saved[k + d] }
            let k = x - y
            let previousK: Int
            if d == 0 {
                previousK = 0
            } else if k == -d || (k != d && at(k - 1) < at(k + 1)) {
                previousK = k + 1
            } else {
                previousK = k - 1
            }
            let previousX = d == 0 ? 0 : at(previousK)
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                x -= 1
                y -= 1
                result.append(.same(reference: oldBase + x, actual: newBase + y))
            }
            if d > 0 {
                if x == previousX {
                    result.append(.inserted(actual: newBase + previousY))
                } else {
                    result.append(.removed(reference: oldBase + previousX))
                }
            }
            x = previousX
            y = previousY
        }
        return result.reversed()
    }

    /// The unified-diff hunks turning `reference` into `actual`, with `context` unchanged lines
    /// around each change; `nil` when the texts are equal.
    public static func unified(reference: String, actual: String, context: Int = 3) -> String? {
        guard reference != actual else { return nil }
        let old = reference.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let script = edits(reference: old, actual: new)
        guard script.contains(where: { if case .same = $0 { false } else { true } }) else {
            return nil
        }

        // Group changes whose context overlaps into hunks of edit indices.
        var changeIndices: [Int] = []
        for (index, edit) in script.enumerated() {
            if case .same = edit { continue }
            changeIndices.append(index)
        }
        var hunks: [ClosedRange<Int>] = []
        for index in changeIndices {
            let lower = max(0, index - context)
            let upper = min(script.count - 1, index + context)
            if let last = hunks.last, lower <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...upper
            } else {
                hunks.append(lower...upper)
            }
        }

        var out: [String] = []
        for hunk in hunks {
            // Where the hunk starts in each text: the first line of either kind at or after it.
            var oldStart = 0, newStart = 0, oldCount = 0, newCount = 0
            var body: [String] = []
            var sawOld = false, sawNew = false
            for edit in script[hunk] {
                switch edit {
                case let .same(r, a):
                    if !sawOld { oldStart = r; sawOld = true }
                    if !sawNew { newStart = a; sawNew = true }
                    oldCount += 1
                    newCount += 1
                    body.append(" " + old[r])
                case let .removed(r):
                    if !sawOld { oldStart = r; sawOld = true }
                    oldCount += 1
                    body.append("-" + old[r])
                case let .inserted(a):
                    if !sawNew { newStart = a; sawNew = true }
                    newCount += 1
                    body.append("+" + new[a])
                }
            }
            if !sawOld { oldStart = linesBefore(hunk.lowerBound, in: script, reference: true) }
            if !sawNew { newStart = linesBefore(hunk.lowerBound, in: script, reference: false) }
            // GNU convention: an empty range names the line before it (0 at the top).
            let oldLabel = oldCount == 0 ? "\(oldStart),0" : "\(oldStart + 1),\(oldCount)"
            let newLabel = newCount == 0 ? "\(newStart),0" : "\(newStart + 1),\(newCount)"
            out.append("@@ -\(oldLabel) +\(newLabel) @@")
            out += body
        }
        return out.joined(separator: "\n")
    }

    /// How many reference (or actual) lines come before edit `index`.
    private static func linesBefore(_ index: Int, in script: [Edit], reference: Bool) -> Int {
        var count = 0
        for edit in script[..<index] {
            switch edit {
            case .same: count += 1
            case .removed: if reference { count += 1 }
            case .inserted: if !reference { count += 1 }
            }
        }
        return count
    }
}
