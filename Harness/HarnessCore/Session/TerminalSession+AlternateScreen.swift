import TerminalEmulator

extension TerminalSession {
    /// The alternate screen as the program last left it, nil if it never did: what a
    /// full-screen program showed last, once it restored the main screen and exited.
    package var lastAlternateScreen: ScreenSnapshot? { core.lastAlternateScreen }
}
