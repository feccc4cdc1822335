import Foundation
import HarnessCore
import HarnessSteps
import HarnessWire

/// The setup commands (before `launch`), `timeout` and `launch`.
extension FlowParser.LineParser {
    func app() throws(FlowParseError) -> FlowCommand {
        let path = try argument("the program's path")
        try refuseNUL(in: path, "the program's path")
        var arguments: [String] = []
        while let argument = try scanner.nextArgument() {
            try refuseNUL(in: argument, "argument \(arguments.count + 1)")
            arguments.append(argument.text)
        }
        return .app(FlowApp(written: path.text, arguments: arguments, flowDirectory: directory))
    }

    func env() throws(FlowParseError) -> FlowCommand {
        _ = scanner.isAtEnd()  // skips the spaces before the name
        let start = scanner.index
        let (name, value) = try assignment(
            "NAME=VALUE", nameRule: "a variable name uses letters, digits and _, not starting with a digit",
            isValidName: { name in
                guard let first = name.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
                return name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            })
        // The bridge's token is made fresh for each launch and only the harness may set it: a
        // flow's own value would silently replace it, and the app's host would be refused.
        guard name != LaunchArgument.tokenEnvironmentVariable else {
            throw scanner.error(.invalidName(name, reason: "the harness sets the bridge token for each launch; a flow cannot set it"),
                                at: start)
        }
        // The launch options' variables are the harness's too (the environment carrier).
        if LaunchVariable.all.contains(name) {
            throw scanner.error(.invalidName(name, reason: "the harness sets \(name) (the launch protocol's environment "
                                             + "carrier); use the flow's stub, seed, clock, given and set lines"),
                                at: start)
        }
        if value.unicodeScalars.contains("\u{0}") {
            throw scanner.error(.nulCharacter(in: "the value of \(name)"), at: start)
        }
        return .env(name: name, value: value)
    }

    /// A NUL character (written raw or as `\0`) cannot reach a program: its path, arguments
    /// and environment are C strings, which would end there.
    private func refuseNUL(in argument: FlowArgument, _ what: String) throws(FlowParseError) {
        guard argument.text.unicodeScalars.contains("\u{0}") else { return }
        throw scanner.error(.nulCharacter(in: what), column: argument.column)
    }

    func size() throws(FlowParseError) -> FlowCommand { .size(try terminalSize()) }

    func clock() throws(FlowParseError) -> FlowCommand {
        let argument = try argument("an ISO 8601 date and time, e.g. 2023-11-14T22:13:20Z")
        guard let date = FlowClock.parse(argument.text) else {
            throw scanner.error(.invalidClock(argument.text), column: argument.column)
        }
        return .clock(date)
    }

    func timeout() throws(FlowParseError) -> FlowCommand { .timeout(try duration("a duration", allowZero: false)) }

    func seed() throws(FlowParseError) -> FlowCommand {
        let file = try argument("the file to seed")
        try word("as")
        let name = try sandboxName(try argument("the name in the sandbox (`as NAME`)"))
        return .seed(file: reference(file), name: name)
    }

    func set() throws(FlowParseError) -> FlowCommand {
        let (key, value) = try assignment(
            "KEY=VALUE", nameRule: "a key uses letters, digits, _, - and .",
            isValidName: { name in !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) } })
        return .set(key: key, value: value)
    }

    func carrier() throws(FlowParseError) -> FlowCommand { .carrier(try choice("arguments or environment")) }

    /// `launch` or `launch pipes`.
    func launch() throws(FlowParseError) -> FlowCommand {
        guard let mode = try scanner.nextArgument() else { return .launch }
        guard !mode.quoted, mode.text == "pipes" else {
            throw scanner.error(.unexpectedArgument(mode.text, expected: "\"pipes\" or the end of the line"), column: mode.column)
        }
        return .launchPipes
    }

    /// `stub METHOD PATH STATUS|hang|close|sequence ...`.
    func stub() throws(FlowParseError) -> FlowCommand {
        let method = try method()
        let path = try requestPath()
        let match = try requestMatch()
        let kind = try argument("a status, hang, close or sequence")
        let response: FlowStubResponse
        switch (kind.quoted, kind.text) {
        case (false, "hang"): response = .hang
        case (false, "close"): response = .close
        case (false, "sequence"):
            guard let elements = try scanner.nextList() else { throw missing("the statuses, comma-separated") }
            var statuses: [Int] = []
            for element in elements { statuses.append(try status(element)) }
            var json: FlowFileReference?
            if let next = try scanner.nextArgument() {
                guard !next.quoted, next.text == "json" else {
                    throw scanner.error(.unexpectedArgument(next.text, expected: "\"json FILE\" or the end of the line"),
                                        column: next.column)
                }
                guard statuses.contains(where: { (200...299).contains($0) }) else {
                    throw scanner.error(.unexpectedArgument("json", expected: "no body: the sequence has no 2xx status"),
                                        column: next.column)
                }
                json = reference(try argument("the JSON file"))
            }
            response = .sequence(statuses: statuses, json: json)
        default:
            let status = try status(kind)
            var body = FlowStubBody.empty
            var delay: Duration?
            var seenBody = false
            while let option = try scanner.nextArgument() {
                switch (option.quoted, option.text) {
                case (false, "json") where !seenBody:
                    body = .json(reference(try argument("the JSON file")))
                    seenBody = true
                case (false, "text") where !seenBody:
                    body = .text(try argument("the text of the body").text)
                    seenBody = true
                case (false, "delay") where delay == nil:
                    delay = try duration("a duration after delay", allowZero: true)
                default:
                    let expected = seenBody ? "\"delay DURATION\" or the end of the line"
                        : "\"json FILE\", \"text \"...\"\", \"delay DURATION\" or the end of the line"
                    throw scanner.error(.unexpectedArgument(option.text, expected: expected), column: option.column)
                }
            }
            response = .respond(status: status, body: body, delay: delay)
        }
        return .stub(FlowStub(method: method, path: path, match: match, response: response))
    }
}
