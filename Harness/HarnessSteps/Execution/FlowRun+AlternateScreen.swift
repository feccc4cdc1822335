import HarnessCore
import TerminalEmulator

extension FlowRun {
    /// When the program has ended on its main screen after leaving the alternate one (a
    /// full-screen program that restored the shell's screen), the alternate screen's last frame:
    /// what the program showed last, which the restored main screen does not. Empty otherwise.
    static func lastAlternateScreenLines(of session: TerminalSession) -> [String] {
        guard session.exitStatus != nil, session.screen.activeBuffer == .main, let frame = session.lastAlternateScreen else { return [] }
        return ["The program's last full-screen frame (the alternate screen, before it restored the main screen and exited):",
                frame.framed()]
    }
}
