/// One screen's stack of kitty keyboard flags. The current flags are the top entry, or the
/// base entry when nothing was pushed; `CSI = flags ; mode u` changes whichever is current.
/// At most ``limit`` entries are kept: a push beyond it drops the oldest. A pop that empties
/// the stack resets the flags to none, as the protocol says.
struct KittyKeyboardStack: Equatable {
    /// How many pushed entries are kept.
    static let limit = 16

    private var base: KittyKeyboardFlags = []
    private var pushed: [KittyKeyboardFlags] = []

    /// The flags in force.
    var current: KittyKeyboardFlags { pushed.last ?? base }

    /// `CSI > flags u`.
    mutating func push(_ flags: KittyKeyboardFlags) {
        pushed.append(flags)
        if pushed.count > Self.limit { pushed.removeFirst(pushed.count - Self.limit) }
    }

    /// `CSI < count u`.
    mutating func pop(_ count: Int) {
        pushed.removeLast(min(count, pushed.count))
        if pushed.isEmpty { base = [] }
    }

    /// `CSI = flags ; mode u`: mode 1 sets exactly these flags, 2 adds them, 3 removes them.
    /// Returns false for another mode (nothing changes).
    mutating func set(_ flags: KittyKeyboardFlags, mode: Int) -> Bool {
        var value = current
        switch mode {
        case 1: value = flags
        case 2: value.formUnion(flags)
        case 3: value.subtract(flags)
        default: return false
        }
        if pushed.isEmpty { base = value } else { pushed[pushed.count - 1] = value }
        return true
    }
}
