import HarnessFlows
import HarnessSteps
import Harness
import Testing

extension FlowCases {
    /// The flow and its traces as its trace file names them, so that `harness swift-test` shows
    /// the trace on the case that ran it: under Swift Testing, the running test as the runner
    /// names its results (`Module.Suite/test(_:)`), with the flow as the arguments of the case
    /// when the test is parameterized (``SwiftTestCaseName``, the arguments as Swift Testing
    /// describes them); elsewhere the flow's own path.
    static func traced(_ flow: FlowFile, _ traces: FlowTraceCollector) -> (flow: FlowFile, traces: FlowTraceCollector) {
        guard let test = AppStepRunner.runningTestName else { return (flow, traces) }
        let name = Test.Case.current?.isParameterized == true
            ? SwiftTestCaseName.name(test: test, arguments: String(describingForTest: flow)) : test
        let named = FlowTraceCollector(mode: traces.mode)
        for var trace in traces.traces[flow.relativePath]?.values.map({ $0 }) ?? [] {
            trace.path = name
            named.add(trace)
        }
        return (FlowFile(path: flow.path, relativePath: name), named)
    }
}
