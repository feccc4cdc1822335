/// What DECSC (`ESC 7`, `CSI s`) saves and DECRC (`ESC 8`, `CSI u`) restores. The defaults
/// are the home, with a plain pen: what DECRC restores when nothing was saved, and what a
/// soft reset (DECSTR) leaves saved.
struct SavedCursor: Equatable {
    var row = 0
    var col = 0
    var pendingWrap = false
    var pen = StoredCell.blank
    var originMode = false
    var charsets = CharsetState()
}
