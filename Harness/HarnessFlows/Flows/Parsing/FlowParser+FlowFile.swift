import HarnessSteps

extension FlowParser {
    /// Loads a discovered flow, naming it by its relative path in errors.
    public static func load(_ flow: FlowFile) throws(FlowParseErrors) -> FlowScript {
        try load(path: flow.path, displayName: flow.relativePath)
    }

    /// Loads every flow, collecting the errors of all files so a run can report them together
    /// before anything starts.
    public static func loadAll(_ flows: [FlowFile]) throws(FlowParseErrors) -> [FlowScript] {
        var scripts: [FlowScript] = []
        var errors: [FlowParseError] = []
        for flow in flows {
            do {
                scripts.append(try load(flow))
            } catch {
                errors += error.errors
            }
        }
        if !errors.isEmpty { throw FlowParseErrors(errors) }
        return scripts
    }
}
