import Harness
import Testing

@Suite struct LineDiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(LineDiff.unified(reference: "a\nb", actual: "a\nb") == nil)
        #expect(LineDiff.unified(reference: "", actual: "") == nil)
    }

    @Test func aChangedLineShowsReferenceMinusAndActualPlus() {
        let diff = LineDiff.unified(reference: "a\nb\nc", actual: "a\nB\nc")
        #expect(diff == """
            @@ -1,3 +1,3 @@
             a
            -b
            +B
             c
            """)
    }

    @Test func contextIsThreeLinesAndDistantChangesMakeSeparateHunks() {
        let reference = (1...20).map { "line \($0)" }
        var actual = reference
        actual[1] = "changed 2"
        actual[17] = "changed 18"
        let diff = LineDiff.unified(reference: reference.joined(separator: "\n"), actual: actual.joined(separator: "\n"))
        #expect(diff == """
            @@ -1,5 +1,5 @@
             line 1
            -line 2
            +changed 2
             line 3
             line 4
             line 5
            @@ -15,6 +15,6 @@
             line 15
             line 16
             line 17
            -line 18
            +changed 18
             line 19
             line 20
            """)
    }

    @Test func closeChangesShareOneHunk() {
        let reference = (1...10).map { "\($0)" }
        var actual = reference
        actual[2] = "x"
        actual[7] = "y"
        let diff = LineDiff.unified(reference: reference.joined(separator: "\n"), actual: actual.joined(separator: "\n")) ?? ""
        #expect(diff.components(separatedBy: "@@ -").count == 2)
        #expect(diff.hasPrefix("@@ -1,10 +1,10 @@"))
    }

    @Test func insertionsAndRemovalsCountLinesLikeGNUDiff() {
        #expect(LineDiff.unified(reference: "a\nb", actual: "a\nb\nc") == "@@ -1,2 +1,3 @@\n a\n b\n+c")
        #expect(LineDiff.unified(reference: "x\na\nb", actual: "a\nb") == "@@ -1,3 +1,2 @@\n-x\n a\n b")
        // An empty text is one empty line.
        #expect(LineDiff.unified(reference: "", actual: "new") == "@@ -1,1 +1,1 @@\n-\n+new")
        // Without context, an empty range names the line before it.
        #expect(LineDiff.unified(reference: "a\nc", actual: "a\nb\nc", context: 0) == "@@ -1,0 +2,1 @@\n+b")
        #expect(LineDiff.unified(reference: "a\nb\nc", actual: "a\nc", context: 0) == "@@ -2,1 +1,0 @@\n-b")
    }

    @Test func theEditScriptIsMinimal() {
        let reference = "a b c a b b a".split(separator: " ")
        let actual = "c b a b a c".split(separator: " ")
        let edits = LineDiff.edits(reference: reference, actual: actual)
        let changes = edits.filter { if case .same = $0 { false } else { true } }
        #expect(changes.count == 5)   // Myers' classic example: D = 5
        // Replaying the script gives the actual text back.
        var rebuilt: [Substring] = []
        for edit in edits {
            switch edit {
            case .same(let r, _): rebuilt.append(reference[r])
            case .inserted(let a): rebuilt.append(actual[a])
            case .removed: break
            }
        }
        #expect(rebuilt == actual)
    }

    @Test(arguments: [
        ("", "a\nb\nc"), ("a\nb\nc", ""), ("a\nb\nc\nd", "d\nc\nb\na"), ("1\n2\n3\n4\n5\n6\n7\n8", "1\n2\nx\n4\n5\n6\n7\ny"),
    ])
    func hunksAccountForEveryLine(reference: String, actual: String) throws {
        let diff = try #require(LineDiff.unified(reference: reference, actual: actual))
        let lines = diff.split(separator: "\n", omittingEmptySubsequences: false)
        let removedOrKept = lines.filter { $0.hasPrefix("-") || $0.hasPrefix(" ") }.count
        let insertedOrKept = lines.filter { $0.hasPrefix("+") || $0.hasPrefix(" ") }.count
        #expect(removedOrKept == reference.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(insertedOrKept == actual.split(separator: "\n", omittingEmptySubsequences: false).count)
    }

    @Test func hugeDifferencesFallBackToRemovedThenInserted() throws {
        let reference = (0..<3000).map { "old \($0)" }.joined(separator: "\n")
        let actual = "same\n" + (0..<3000).map { "new \($0)" }.joined(separator: "\n")
        let diff = try #require(LineDiff.unified(reference: "same\n" + reference, actual: actual))
        let lines = diff.split(separator: "\n")
        #expect(lines.first == "@@ -1,3001 +1,3001 @@")
        #expect(lines.filter { $0.hasPrefix("-") }.count == 3000)
        #expect(lines.filter { $0.hasPrefix("+") }.count == 3000)
        #expect(lines[1] == " same" && lines[2] == "-old 0" && lines[3001] == "-old 2999" && lines[3002] == "+new 0")
    }
}
