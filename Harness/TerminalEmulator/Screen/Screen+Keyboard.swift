extension Screen {
    // MARK: - Kitty keyboard protocol

    /// The stack of the screen shown now.
    private var activeKeyboardStack: KittyKeyboardStack {
        get { activeBuffer == .main ? keyboardStacks.main : keyboardStacks.alternate }
        set {
            if activeBuffer == .main { keyboardStacks.main = newValue } else { keyboardStacks.alternate = newValue }
        }
    }

    /// `CSI > flags u`.
    mutating func pushKeyboardFlags(_ flags: KittyKeyboardFlags) {
        activeKeyboardStack.push(flags)
        modes.kittyKeyboard = activeKeyboardStack.current
    }

    /// `CSI < count u`.
    mutating func popKeyboardFlags(_ count: Int) {
        activeKeyboardStack.pop(count)
        modes.kittyKeyboard = activeKeyboardStack.current
    }

    /// `CSI = flags ; mode u`; false for an unknown mode.
    mutating func setKeyboardFlags(_ flags: KittyKeyboardFlags, mode: Int) -> Bool {
        defer { modes.kittyKeyboard = activeKeyboardStack.current }
        return activeKeyboardStack.set(flags, mode: mode)
    }

    /// After a switch of screens: the flags are those of the screen shown now.
    mutating func showKeyboardFlagsOfActiveScreen() {
        modes.kittyKeyboard = activeKeyboardStack.current
    }
}
