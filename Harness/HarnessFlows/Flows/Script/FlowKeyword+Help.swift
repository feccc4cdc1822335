import HarnessSteps

extension FlowKeyword {
    /// The keyword's forms as a flow writes them, one per form of its grammar:
    /// `expect "text"|/regex/ [in AREA] [style ATTRIBUTES...] [within DURATION]`.
    public var usages: [String] {
        definition.grammar.forms.map { $0.isEmpty ? rawValue : "\(rawValue) \($0)" }
    }

    /// Every keyword's forms, when it may appear and what it does: the command list of
    /// `harness run --help`.
    public static var commandList: String {
        allCases.map { keyword in
            let definition = keyword.definition
            return (keyword.usages.map { "  " + $0 } + ["      \(definition.summary) [\(definition.phase)]"]).joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
