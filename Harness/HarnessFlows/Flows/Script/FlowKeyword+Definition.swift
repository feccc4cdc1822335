import HarnessCore
import HarnessSteps
import TerminalEmulator

extension FlowKeyword {
    /// A keyword's row of the table (``FlowKeyword/definition``): when it may appear, what it
    /// needs, how its arguments are written and read, and what it does in one line.
    public struct Definition: Sendable {
        /// When the keyword may appear, relative to `launch` and the end of the program.
        public let phase: Phase
        /// What the command needs from the run (after `launch` for ``Phase/setupThenRunning``).
        public let needs: Needs
        /// What it needs before `launch` (the same as ``needs`` except for `given`).
        public let needsBeforeLaunch: Needs
        /// Its arguments: the forms help and docs show, and how the parser reads them.
        public let grammar: Grammar
        /// What it does, in one line (help, docs/FLOWS.md's command reference).
        public let summary: String

        init(_ phase: Phase, needs: Needs = [], beforeLaunch: Needs? = nil, _ grammar: Grammar, _ summary: String) {
            self.phase = phase
            self.needs = needs
            self.needsBeforeLaunch = beforeLaunch ?? needs
            self.grammar = grammar
            self.summary = summary
        }

        /// What the command needs when it comes before (`false`) or after (`true`) `launch`.
        public func needs(afterLaunch: Bool) -> Needs { afterLaunch ? needs : needsBeforeLaunch }
    }

    /// When a keyword may appear; the parser's order checks enforce it.
    public enum Phase: Sendable, Hashable, CustomStringConvertible {
        /// Configures the launch: before `launch` only.
        case setup
        /// The launch itself: exactly once, after `app`.
        case launch
        /// Anywhere (`timeout`).
        case anywhere
        /// After `launch`, while the program runs (not after `exit` or `kill`).
        case running
        /// After `launch`, while the program runs; ends it (`exit`, `kill`).
        case ending
        /// After `launch`, also after the program ended (reads what the run left).
        case afterLaunch
        /// Setup before `launch`, a command to the running program after it (`given`).
        case setupThenRunning

        /// The phase as help and docs say it.
        public var description: String {
            switch self {
            case .setup: "before launch"
            case .launch: "once, after app"
            case .anywhere: "anywhere"
            case .running: "while the program runs"
            case .ending: "while the program runs; ends it"
            case .afterLaunch: "after launch"
            case .setupThenRunning: "before launch, or while the program runs"
            }
        }
    }

    /// How a keyword's arguments are written (for help and docs) and read (by the parser).
    public struct Grammar: Sendable {
        /// The forms of the arguments after the keyword, e.g. `"text"|/regex/ [within DURATION]`.
        public let forms: [String]
        /// Reads the arguments of one line (the keyword already read).
        let parse: @Sendable (FlowParser.LineParser) -> () throws(FlowParseError) -> FlowCommand

        /// Arguments read by a function of the parser (`FlowParser+Topic.swift`).
        static func custom(
            _ forms: String...,
            parse: @escaping @Sendable (FlowParser.LineParser) -> () throws(FlowParseError) -> FlowCommand
        ) -> Grammar {
            Grammar(forms: forms, parse: parse)
        }

        /// `"text"|/regex/` followed by `options` in any order, each at most once.
        static func pattern(_ options: PatternOptions, make: @escaping @Sendable (PatternArguments) -> FlowCommand) -> Grammar {
            let written = [(PatternOptions.area, "[in AREA]"), (.style, "[style ATTRIBUTES...]"), (.within, "[within DURATION]"),
                           (.during, "[for DURATION]")]
                .filter { options.contains($0.0) }.map(\.1)
            return Grammar(forms: [(["\"text\"|/regex/"] + written).joined(separator: " ")]) { parser in
                { () throws(FlowParseError) in make(try parser.patternArguments(options)) }
            }
        }
    }

    /// The options a pattern command (`expect`, `expect-not`, `expect-gone`, ...) accepts.
    public struct PatternOptions: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// `in AREA`.
        public static let area = PatternOptions(rawValue: 1 << 0)
        /// `style ATTRIBUTES...`.
        public static let style = PatternOptions(rawValue: 1 << 1)
        /// `within DURATION`.
        public static let within = PatternOptions(rawValue: 1 << 2)
        /// `for DURATION` (`expect-not`: not during that time).
        public static let during = PatternOptions(rawValue: 1 << 3)
    }

    /// What a pattern command's line gave (options not accepted stay nil).
    struct PatternArguments {
        var pattern: FlowTextPattern
        var area: ScreenArea?
        var style: TextStyle?
        var within: Duration?
        var during: Duration?
    }
}
