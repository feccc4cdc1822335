import Foundation
import Harness
import Testing
@testable import HarnessFlows

/// The recorder fed with steps instead of bytes (`harness mcp`'s `save_flow`): the waits the
/// author used stay; where the author sent input without waiting, the recorder expects the
/// line that appeared since, as `harness record` does.
@Suite struct FlowRecorderStepTests {
    @Test func waitsStayAndUnwaitedInputGetsAnExpectOfNewText() {
        var recorder = FlowRecorder(setup: [.app(FlowApp(written: "python3", arguments: ["-q"], flowDirectory: "")), .launch], screen: [""])
        recorder.step(.type("6*7"), screen: [">>> "])                        // the prompt appeared: expected first
        recorder.step(.press([.enter]), screen: [">>> 6*7"])                 // only the echo of the typing: nothing
        recorder.wait(.expect(.text("42"), within: nil), screen: [">>> 6*7", "42", ">>> "])
        recorder.step(.type("quit()\r"), screen: [">>> 6*7", "42", ">>> "])  // nothing new since the wait
        recorder.look(at: [">>> 6*7", "42", ">>> quit()", "bye"])
        #expect(recorder.commands.map(\.flowText) == [
            "app python3 -q", "launch", #"expect ">>>""#, #"type "6*7""#, "press enter", #"expect "42""#,
            #"type "quit()\r""#, #"expect "bye""#,
        ])
    }
}
