import HarnessSteps

extension FlowScript {
    /// What `steps` need, together, by the keyword table (``FlowKeyword/Definition/needs``;
    /// `given` needs the launch options before `launch` and the bridge after it).
    static func needs(of steps: [FlowStep]) -> FlowKeyword.Needs {
        let launch = steps.firstIndex { $0.command == .launch || $0.command == .launchPipes } ?? steps.count
        return steps.indices.reduce(into: []) { needs, index in
            needs.formUnion(steps[index].command.keyword.definition.needs(afterLaunch: index > launch))
        }
    }
}
