/// What DECSC (`ESC 7`, `CSI s`) saves and DECRC (`ESC 8`, `CSI u`) restores.
struct SavedCursor: Equatable {
    var row: Int
    var col: Int
    var pendingWrap: Bool
    var pen: StoredCell
    var originMode: Bool
    var charsets: CharsetState
}
