import HarnessFlows

/// Splits a subcommand's arguments into options (`--name VALUE`, `--name=VALUE`, flags) and
/// positional arguments; everything after `--` is positional.
struct CommandArguments {
    /// Option values by name (without `--`), in order given; flags have an empty value.
    private(set) var options: [(name: String, value: String)] = []
    /// The positional arguments, in order.
    private(set) var positional: [String] = []
    /// The arguments after `--`, when there was one.
    private(set) var afterSeparator: [String]?

    /// Parses `arguments` by a command's option table (a short alias `-s` is its long name).
    init(_ arguments: [String], options table: [CommandOption]) throws(CommandError) {
        let valued = Set(table.filter { $0.value != nil }.map(\.name))
        let flags = Set(table.filter { $0.value == nil }.map(\.name))
        let shorts = Dictionary(table.compactMap { option in option.short.map { ("-\($0)", "--\(option.name)") } },
                                uniquingKeysWith: { first, _ in first })
        let separator = arguments.firstIndex(of: "--") ?? arguments.endIndex
        let spelled = arguments[..<separator].map { shorts[$0] ?? $0 } + arguments[separator...]
        try self.init(spelled, valued: valued, flags: flags)
    }

    /// Parses `arguments`, given which options take a value and which are flags.
    private init(_ arguments: [String], valued: Set<String>, flags: Set<String> = []) throws(CommandError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                afterSeparator = Array(arguments[index...])
                break
            }
            guard argument.hasPrefix("--"), argument.count > 2 else {
                if argument.hasPrefix("-"), argument.count > 1 {
                    throw .usage("unknown option \(argument.debugDescription)")
                }
                positional.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var inline: String?
            if let equals = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flags.contains(name) {
                guard inline == nil else { throw .usage("--\(name) takes no value") }
                options.append((name, ""))
            } else if valued.contains(name) {
                if let inline {
                    options.append((name, inline))
                } else {
                    guard index < arguments.count else { throw .usage("--\(name) needs a value") }
                    options.append((name, arguments[index]))
                    index += 1
                }
            } else {
                throw .usage("unknown option --\(name)")
            }
        }
    }

    /// The value of option `name` (the last one given), or nil.
    func value(_ name: String) -> String? {
        options.last { $0.name == name }?.value
    }

    /// Every value of option `name`, in the order given (`--tag a --tag b`).
    func values(_ name: String) -> [String] {
        options.filter { $0.name == name }.map(\.value)
    }

    /// Whether flag `name` was given.
    func has(_ name: String) -> Bool {
        options.contains { $0.name == name }
    }

    /// The value of `name` as an integer in `range`, or nil when absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(CommandError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw .usage("--\(name) \(text.debugDescription): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}

extension CommandArguments {
    /// The positive duration of option `name` (`--timeout 5s`), nil when not given.
    /// - Throws: ``CommandError/usage(_:)`` naming `example` durations when it is not one.
    func duration(_ name: String, example: String) throws(CommandError) -> Duration? {
        guard let text = value(name) else { return nil }
        guard let duration = FlowDurationParser.parse(text), duration > .zero else {
            throw .usage("--\(name) \(text.debugDescription): expected a duration such as \(example)")
        }
        return duration
    }

    /// The seconds of option `name` (`--at 2.5`), a finite number of at least 0; nil when not given.
    func seconds(_ name: String) throws(CommandError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
            throw .usage("--\(name) \(text.debugDescription): expected seconds, e.g. 2.5")
        }
        return seconds
    }
}
