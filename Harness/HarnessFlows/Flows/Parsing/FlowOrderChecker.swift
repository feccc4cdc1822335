import HarnessSteps
/// The checks across lines: one `app`, one `launch` after it, setup before `launch`,
/// interaction after it and not after the app was ended, no duplicate names.
/// The phases and needs come from the keyword table (``FlowKeyword/definition``).
enum FlowOrderChecker {
    static func check(_ steps: [FlowStep], file: String, lastLine: Int, ignoring keywordsWithErrors: Set<FlowKeyword>) -> [FlowParseError] {
        var errors: [FlowParseError] = []
        var firstLine: [String: Int] = [:]
        var appLine: Int?
        var launchLine: Int?
        var ended: (keyword: FlowKeyword, line: Int)?
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
                duplicate("app", command: keyword.rawValue, subject: "(the program)", at: step)
                if appLine == nil { appLine = step.position.line }
            case .launch, .launchPipes:
                duplicate("launch", command: keyword.rawValue, subject: "(once per flow)", at: step)
                if launchLine == nil {
                    launchLine = step.position.line
                    if appLine == nil { launchBeforeApp = step }
                }
            case .env(let name, _):
                duplicate("env \(name)", command: keyword.rawValue, subject: name, at: step)
            case .size:
                duplicate("size", command: keyword.rawValue, subject: "(the launch size)", at: step)
            case .clock:
                duplicate("clock", command: keyword.rawValue, subject: "(the frozen clock)", at: step)
            case .stub(let stub):
                let route = ([stub.method, stub.path] + stub.match.words).joined(separator: " ")
                duplicate("stub \(route)", command: keyword.rawValue, subject: route, at: step)
            case .seed(_, let name):
                duplicate("seed \(name)", command: keyword.rawValue, subject: "as \(name)", at: step)
            case .snapshot(let name, _), .snapshotTranscript(let name):
                duplicate("snapshot \(name)", command: keyword.rawValue, subject: name, at: step)
            // Runs without a terminal (pipes): one input; snapshot names shared with the screen's.
            case .stdin:
                duplicate("stdin", command: keyword.rawValue, subject: "(the standard input)", at: step)
            case .set(let key, _):
                duplicate("set \(key)", command: keyword.rawValue, subject: key, at: step)
            case .carrier:
                duplicate("carrier", command: keyword.rawValue, subject: "(where the launch options go)", at: step)
            case .given(let given) where launchLine == nil:
                duplicate("given", command: keyword.rawValue, subject: "(the initial state)", at: step)
                if case .json = given { errors.append(FlowParseError(.givenJSONBeforeLaunch, at: step.position)) }
            case .streamCheck(_, .snapshot(let name)):
                duplicate("snapshot \(name)", command: "\(keyword.rawValue) snapshot", subject: name, at: step)
            default:
                break
            }

            let phase = keyword.definition.phase
            let needs = keyword.definition.needs(afterLaunch: launchLine != nil && phase != .launch)
            if let launchesWithPipes, let error = runKindError(keyword, needs: needs, launchesWithPipes: launchesWithPipes) {
                errors.append(FlowParseError(error, at: step.position))
                continue
            }
            let command = keyword.rawValue
            switch phase {
            case .setup:
                if launchLine != nil { errors.append(FlowParseError(.setupAfterLaunch(command: command), at: step.position)) }
            case .running, .ending, .afterLaunch:
                if launchLine == nil {
                    errors.append(FlowParseError(.beforeLaunch(command: command), at: step.position))
                } else if let ended, phase != .afterLaunch {
                    errors.append(FlowParseError(.afterExit(command: command, endedBy: ended.keyword.rawValue, line: ended.line),
                                                 at: step.position))
                }
            case .setupThenRunning:
                // `given`: setup before launch (the initial state), a command to the program after it.
                if launchLine != nil, let ended {
                    errors.append(FlowParseError(.afterExit(command: command, endedBy: ended.keyword.rawValue, line: ended.line),
                                                 at: step.position))
                }
            case .launch, .anywhere:
                break
            }
            if phase == .ending, launchLine != nil, ended == nil {
                ended = (keyword, step.position.line)
            }
        }

        if let launchBeforeApp, appLine != nil {
            errors.append(FlowParseError(.launchBeforeApp, at: launchBeforeApp.position))
        }
        if appLine == nil, !keywordsWithErrors.contains(.app) {
            errors.append(FlowParseError(.missingApp, at: SourcePosition(file: file, line: 1, column: 1)))
        }
        if launchLine == nil, !keywordsWithErrors.contains(.launch) {
            errors.append(FlowParseError(.missingLaunch, at: SourcePosition(file: file, line: lastLine, column: 1)))
        }
        return errors
    }

    // MARK: - Runs without a terminal (pipes)

    /// The error of a command that the flow's kind of run does not have: one that needs a
    /// terminal when it launches with pipes, one that needs pipes when it launches in a terminal.
    static func runKindError(_ keyword: FlowKeyword, needs: FlowKeyword.Needs, launchesWithPipes: Bool) -> FlowParseError.Kind? {
        if launchesWithPipes, needs.contains(.terminal) { return .needsTerminal(command: keyword.rawValue) }
        if !launchesWithPipes, needs.contains(.pipes) { return .needsPipes(command: keyword.rawValue) }
        return nil
    }
}
