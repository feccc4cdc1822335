import HarnessCore
import HarnessWire

extension FlowRun {
    /// Why a flow's launch failed when its program's bridge did not come up, said for a flow.
    ///
    /// The rule: the program exited before its bridge said ready, or it wrote to its terminal
    /// without having connected (a host connects before the first output: it links none), both
    /// known at once; or it never connected within the launch's wait for it (it wrote nothing). The
    /// message names the flow's first bridge line and what a flow can do about it; the Swift
    /// advice of ``BridgeError`` (`launch.launchProtocol`) does not apply to a flow.
    func bridgeLaunchFailure(_ error: BridgeError, executable: String, carrier: LaunchCarrier) -> FlowStepFailure {
        let launch = script.launchIndex ?? script.steps.count
        let bridgeLines: Set<FlowKeyword> = [.call, .probe, .spy, .event]
        let first = script.steps.indices.first { index in
            let keyword = script.steps[index].command.keyword
            return bridgeLines.contains(keyword) || (keyword == .given && index > launch)
        }.map { script.steps[$0] }
        let line = first.map { "`\($0.command.keyword.rawValue)` on line \($0.position.line)" } ?? "the flow's bridge lines"
        let advice = "The flow's bridge lines (call, probe, spy, event, given after launch) need a program that links a harness "
            + "host (HarnessHost, or Harness/hosts/python): launch one, or remove them to drive \(executable) as any terminal program."
        let carried = carrier == .arguments
            ? " With `carrier arguments` the launch options are flags after the program path, which a program that does not "
                + "expect them (an interpreter: python3) refuses: the default, `carrier environment`, leaves the command line as written."
            : ""
        var diagnostics: String?
        let problem: String
        switch error {
        case .neverConnected(let timeout, let found):
            problem = "\(line) needs the bridge, but \(executable) never connected to it within \(FlowDurationParser.format(timeout)): "
                + "it links no harness host"
            diagnostics = found
        case .noHost(let found):
            problem = "\(line) needs the bridge, but \(executable) wrote to its terminal and never connected to it: "
                + "a harness host connects before the program's first output, so it runs none (its screen shows what it wrote)"
            diagnostics = found
        case .appExited(let status, _, let found):
            problem = "\(executable) \(status) before its bridge was ready (\(line) needs the bridge)"
            diagnostics = found
        case .notReady(let timeout, let found):
            problem = "\(executable) connected to the bridge but did not say ready within \(FlowDurationParser.format(timeout))"
            diagnostics = found
        default:
            problem = "\(executable) started but its bridge did not become ready: \(error.failureMessage)"
        }
        let hint = "\n" + TerminalApp.launchProtocolHint(carrier)
        let shown = diagnostics.map { $0.hasSuffix(hint) ? String($0.dropLast(hint.count)) : $0 }
        return FlowStepFailure(problem, details: ([advice + carried] + (shown.map { [$0] } ?? [])).joined(separator: "\n"),
                               showsScreen: false)
    }
}
