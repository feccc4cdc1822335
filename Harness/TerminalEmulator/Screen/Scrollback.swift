/// Lines that scrolled off the top of the main screen, oldest first, at most `limit` of them.
///
/// Lines are kept as stored cells (styles, wide and combining characters survive), trailing
/// plain blanks cut. They are packed into sealed chunks of ``chunkSize`` lines that never change
/// again, so a snapshot shares them: copying a scrollback copies one small array of chunk
/// references and the open chunk (fewer than ``chunkSize`` lines), however long the history.
struct Scrollback: Equatable {
    /// Lines per sealed chunk: small enough that the open chunk is cheap to copy after a
    /// snapshot shared it, large enough that 10,000 lines are a few hundred chunks.
    static let chunkSize = 32
    /// The default limit (xterm's `saveLines` is 1024, tmux's `history-limit` 2000; a test
    /// wants more so that a long output can still be read).
    static let defaultLimit = 10_000

    /// Lines that no longer change: one flat cell array and where each line starts.
    final class Chunk: Sendable {
        let cells: ContiguousArray<StoredCell>
        /// `starts[i]..<starts[i + 1]` are line `i`'s cells; `lineCount + 1` entries.
        let starts: ContiguousArray<Int>

        init(cells: ContiguousArray<StoredCell>, starts: ContiguousArray<Int>) {
            self.cells = cells
            self.starts = starts
        }

        var lineCount: Int { starts.count - 1 }
    }

    /// The most lines kept; older ones are dropped (0 keeps none).
    let limit: Int
    private(set) var sealed: ContiguousArray<Chunk> = []
    private var openCells: ContiguousArray<StoredCell> = []
    private var openStarts: ContiguousArray<Int> = [0]
    /// Lines at the front of the first physical chunk (sealed, or the open one when none is)
    /// that were dropped but are still stored.
    private var skipped = 0
    /// Lines ever pushed, kept ones, dropped ones and cleared ones alike: a line's absolute
    /// number never changes, so "the lines that scrolled off since N" has a meaning.
    private(set) var totalPushed = 0

    init(limit: Int = Scrollback.defaultLimit) {
        self.limit = max(0, limit)
    }

    /// Lines held now.
    var count: Int {
        sealed.count * Self.chunkSize + (openStarts.count - 1) - skipped
    }

    /// The absolute number of the oldest line held (`totalPushed - count`).
    var firstLineNumber: Int { totalPushed - count }

    // MARK: - Changes

    /// Appends one row that scrolled off the screen.
    mutating func push(_ row: UnsafeBufferPointer<StoredCell>) {
        totalPushed += 1
        guard limit > 0 else { return }
        let end = Self.lengthWithoutTrailingBlanks(row)
        openCells.append(contentsOf: UnsafeBufferPointer(rebasing: row[0..<end]))
        openStarts.append(openCells.count)
        if openStarts.count - 1 == Self.chunkSize {
            sealed.append(Chunk(cells: openCells, starts: openStarts))
            openCells = []
            openCells.reserveCapacity(Self.chunkSize * row.count)
            openStarts = [0]
            openStarts.reserveCapacity(Self.chunkSize + 1)
        }
        while count > limit { dropOldest() }
    }

    /// How many cells of `row` are left when its trailing plain blanks (all fields zero, the
    /// hyperlink included) are cut. While a cell is laid out as 16 bytes of fields (the link in
    /// the last two), four cells are tested at a time with 64-bit loads (most of a row that
    /// scrolls off is trailing blanks); the rest one cell at a time.
    @inline(__always)
    static func lengthWithoutTrailingBlanks(_ row: UnsafeBufferPointer<StoredCell>) -> Int {
        var end = row.count
        if MemoryLayout<StoredCell>.stride == 16, MemoryLayout<StoredCell>.size == 16,
           MemoryLayout<StoredCell>.offset(of: \StoredCell.link) == 14, let base = row.baseAddress {
            let raw = UnsafeRawPointer(base)
            while end >= 4 {
                let offset = (end &- 4) &* 16
                var bits = raw.load(fromByteOffset: offset, as: UInt64.self)
                bits |= raw.load(fromByteOffset: offset &+ 8, as: UInt64.self)
                bits |= raw.load(fromByteOffset: offset &+ 16, as: UInt64.self)
                bits |= raw.load(fromByteOffset: offset &+ 24, as: UInt64.self)
                bits |= raw.load(fromByteOffset: offset &+ 32, as: UInt64.self)
                bits |= raw.load(fromByteOffset: offset &+ 40, as: UInt64.self)
                bits |= raw.load(fromByteOffset: offset &+ 48, as: UInt64.self)
                bits |= raw.load(fromByteOffset: offset &+ 56, as: UInt64.self)
                if bits != 0 { break }
                end &-= 4
            }
        }
        while end > 0 {
            let cell = row[end - 1]
            if cell.content | cell.foreground | cell.background | UInt32(cell.flags) | UInt32(cell.link) != 0 { break }
            end -= 1
        }
        return end
    }

    private mutating func dropOldest() {
        skipped += 1
        if let first = sealed.first, skipped == first.lineCount {
            sealed.removeFirst()
            skipped = 0
        }
    }

    /// ED 3: forgets every line (the absolute numbering goes on).
    mutating func removeAll() {
        sealed = []
        openCells = []
        openStarts = [0]
        skipped = 0
    }

    // MARK: - Reading

    /// The stored cells of line `index` (0 = the oldest held); `index` must be in `0..<count`.
    func line(_ index: Int) -> ArraySlice<StoredCell> {
        let physical = index + skipped
        let chunkIndex = physical / Self.chunkSize
        let lineIndex = physical % Self.chunkSize
        if chunkIndex < sealed.count {
            let chunk = sealed[chunkIndex]
            return ArraySlice(chunk.cells[chunk.starts[lineIndex]..<chunk.starts[lineIndex + 1]])
        }
        return ArraySlice(openCells[openStarts[lineIndex]..<openStarts[lineIndex + 1]])
    }

    static func == (lhs: Scrollback, rhs: Scrollback) -> Bool {
        guard lhs.count == rhs.count, lhs.totalPushed == rhs.totalPushed else { return false }
        for index in 0..<lhs.count where lhs.line(index) != rhs.line(index) { return false }
        return true
    }
}
