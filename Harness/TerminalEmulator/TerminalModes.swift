/// Terminal modes a program can switch, as far as the user of the terminal needs them
/// (for example to encode cursor keys or wrap a paste).
public struct TerminalModes: Sendable, Equatable {
    /// DECCKM (`ESC [ ? 1 h`): cursor keys send `ESC O A` instead of `ESC [ A`.
    public var applicationCursorKeys: Bool
    /// Mode 2004: pasted text must be wrapped in `ESC [ 200 ~` ... `ESC [ 201 ~`.
    public var bracketedPaste: Bool
    /// DECTCEM (`ESC [ ? 25 h/l`).
    public var cursorVisible: Bool
    /// DECAWM (`ESC [ ? 7 h/l`): printing past the last column wraps.
    public var autowrap: Bool
    /// DECOM (`ESC [ ? 6 h/l`): cursor addressing is relative to the scroll region.
    public var originMode: Bool
    /// The alternate screen (1049, 1047 or 47) is active.
    public var alternateScreen: Bool
    /// DECKPAM (`ESC =`) / DECKPNM (`ESC >`): the keypad sends application sequences.
    public var applicationKeypad: Bool
    /// The mouse events the program asked for (DECSET 9, 1000, 1002, 1003; off by default).
    public var mouseTracking: MouseTracking
    /// How mouse events are encoded (DECSET 1005, 1006, 1015, 1016; legacy bytes by default).
    public var mouseEncoding: MouseEncoding
    /// Mode 1004: the program wants `CSI I` when the terminal gains focus, `CSI O` when it loses it.
    public var focusReporting: Bool
    /// The kitty keyboard protocol flags of the screen shown now: the top of its stack
    /// (`CSI > flags u` pushes, `CSI < n u` pops; none by default: xterm's legacy keys).
    public var kittyKeyboard: KittyKeyboardFlags

    /// The modes of a freshly reset terminal.
    public init(
        applicationCursorKeys: Bool = false, bracketedPaste: Bool = false, cursorVisible: Bool = true,
        autowrap: Bool = true, originMode: Bool = false, alternateScreen: Bool = false,
        applicationKeypad: Bool = false, mouseTracking: MouseTracking = .off, mouseEncoding: MouseEncoding = .legacy,
        focusReporting: Bool = false, kittyKeyboard: KittyKeyboardFlags = []
    ) {
        self.applicationCursorKeys = applicationCursorKeys
        self.bracketedPaste = bracketedPaste
        self.cursorVisible = cursorVisible
        self.autowrap = autowrap
        self.originMode = originMode
        self.alternateScreen = alternateScreen
        self.applicationKeypad = applicationKeypad
        self.mouseTracking = mouseTracking
        self.mouseEncoding = mouseEncoding
        self.focusReporting = focusReporting
        self.kittyKeyboard = kittyKeyboard
    }
}
