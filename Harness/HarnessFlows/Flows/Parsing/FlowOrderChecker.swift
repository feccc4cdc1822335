/// The checks across lines: one `app`, one `launch` after it, setup before `launch`,
/// interaction after it and not after the app was ended, no duplicate names.
enum FlowOrderChecker {
    /// Commands that configure the launch.
    static let setupKeywords: Set<String> = ["app", "env", "size", "clock", "stub", "seed", "stdin", "set", "carrier"]
    /// Commands that need the program running (allowed after `launch`, before `exit`/`kill`).
    static let needsRunningApp: Set<String> = [
        "type", "press", "paste", "resize", "click", "double-click", "drag", "scroll", "wait-stable", "spy", "exit", "kill",
        "call", "probe",
    ]
    /// Commands that read what the run produced (allowed after `launch`, even after `exit`/`kill`).
    static let afterLaunchOnly: Set<String> = [
        "expect", "expect-not", "expect-output", "expect-output-not", "snapshot", "snapshot-transcript", "event", "file",
        "requests", "stdout", "stderr",
    ]
    /// Commands that need the program's terminal: errors in a flow that launches with pipes.
    static let terminalOnly: Set<String> = [
        "size", "type", "press", "paste", "resize", "click", "double-click", "drag", "scroll", "expect", "expect-not",
        "expect-output", "expect-output-not", "wait-stable", "snapshot", "snapshot-transcript", "spy", "event", "call", "probe",
    ]
    /// Commands of pipes runs: errors in a flow that launches in a terminal.
    static let pipesOnly: Set<String> = ["stdin", "stdout", "stderr"]

    static func check(_ steps: [FlowStep], file: String, lastLine: Int, ignoring keywordsWithErrors: Set<String>) -> [FlowParseError] {
        var errors: [FlowParseError] = []
        var firstLine: [String: Int] = [:]
        var appLine: Int?
        var launchLine: Int?
        var ended: (keyword: String, line: Int)?
        var launchBeforeApp: FlowStep?
        // How the flow launches, from its first launch line: decides which commands it may use.
        let launchesWithPipes = steps.first { $0.command == .launch || $0.command == .launchPipes }
            .map { $0.command == .launchPipes }

        func duplicate(_ key: String, command: String, subject: String, at step: FlowStep) {
            if let line = firstLine[key] {
                errors.append(FlowParseError(.duplicate(command: command, subject: subject, firstLine: line), at: step.position))
            } else {
                firstLine[key] = step.position.line
            }
        }

        for step in steps {
            let keyword = step.command.keyword
            switch step.command {
            case .app:
                duplicate("app", command: "app", subject: "(the program)", at: step)
                if appLine == nil { appLine = step.position.line }
            case .launch, .launchPipes:
                duplicate("launch", command: "launch", subject: "(once per flow)", at: step)
                if launchLine == nil {
                    launchLine = step.position.line
                    if appLine == nil { launchBeforeApp = step }
                }
            case .env(let name, _):
                duplicate("env \(name)", command: "env", subject: name, at: step)
            case .size:
                duplicate("size", command: "size", subject: "(the launch size)", at: step)
            case .clock:
                duplicate("clock", command: "clock", subject: "(the frozen clock)", at: step)
            case .stub(let stub):
                duplicate("stub \(stub.method) \(stub.path)", command: "stub", subject: "\(stub.method) \(stub.path)", at: step)
            case .seed(_, let name):
                duplicate("seed \(name)", command: "seed", subject: "as \(name)", at: step)
            case .snapshot(let name, _), .snapshotTranscript(let name):
                duplicate("snapshot \(name)", command: keyword, subject: name, at: step)
            // Runs without a terminal (pipes): one input; snapshot names shared with the screen's.
            case .stdin:
                duplicate("stdin", command: "stdin", subject: "(the standard input)", at: step)
            case .set(let key, _):
                duplicate("set \(key)", command: "set", subject: key, at: step)
            case .carrier:
                duplicate("carrier", command: "carrier", subject: "(where the launch options go)", at: step)
            case .given(let given) where launchLine == nil:
                duplicate("given", command: "given", subject: "(the initial state)", at: step)
                if case .json = given { errors.append(FlowParseError(.givenJSONBeforeLaunch, at: step.position)) }
            case .streamCheck(let stream, .snapshot(let name)):
                duplicate("snapshot \(name)", command: "\(stream.rawValue) snapshot", subject: name, at: step)
            default:
                break
            }

            if let launchesWithPipes, let error = runKindError(keyword, launchesWithPipes: launchesWithPipes) {
                errors.append(FlowParseError(error, at: step.position))
                continue
            }

            // `given` is setup before launch (the initial state) and a bridge call after it.
            if keyword == "given", launchLine != nil {
                if launchesWithPipes == true {
                    errors.append(FlowParseError(.needsTerminal(command: keyword), at: step.position))
                } else if let ended {
                    errors.append(FlowParseError(.afterExit(command: keyword, endedBy: ended.keyword, line: ended.line),
                                                 at: step.position))
                }
            }

            if setupKeywords.contains(keyword), launchLine != nil {
                errors.append(FlowParseError(.setupAfterLaunch(command: keyword), at: step.position))
            }
            if needsRunningApp.contains(keyword) || afterLaunchOnly.contains(keyword) {
                if launchLine == nil {
                    errors.append(FlowParseError(.beforeLaunch(command: keyword), at: step.position))
                } else if let ended, needsRunningApp.contains(keyword) {
                    errors.append(FlowParseError(.afterExit(command: keyword, endedBy: ended.keyword, line: ended.line),
                                                 at: step.position))
                }
            }
            if (keyword == "exit" || keyword == "kill"), launchLine != nil, ended == nil {
                ended = (keyword, step.position.line)
            }
        }

        if let launchBeforeApp, appLine != nil {
            errors.append(FlowParseError(.launchBeforeApp, at: launchBeforeApp.position))
        }
        if appLine == nil, !keywordsWithErrors.contains("app") {
            errors.append(FlowParseError(.missingApp, at: SourcePosition(file: file, line: 1, column: 1)))
        }
        if launchLine == nil, !keywordsWithErrors.contains("launch") {
            errors.append(FlowParseError(.missingLaunch, at: SourcePosition(file: file, line: lastLine, column: 1)))
        }
        return errors
    }

    // MARK: - Runs without a terminal (pipes)

    /// The error of a command that the flow's kind of run does not have: terminal commands
    /// when it launches with pipes, `stdin`/`stdout`/`stderr` when it launches in a terminal.
    static func runKindError(_ keyword: String, launchesWithPipes: Bool) -> FlowParseError.Kind? {
        if launchesWithPipes, terminalOnly.contains(keyword) { return .needsTerminal(command: keyword) }
        if !launchesWithPipes, pipesOnly.contains(keyword) { return .needsPipes(command: keyword) }
        return nil
    }
}
