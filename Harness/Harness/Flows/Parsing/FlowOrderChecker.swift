/// The checks across lines: one `app`, one `launch` after it, setup before `launch`,
/// interaction after it and not after the app was ended, no duplicate names.
enum FlowOrderChecker {
    /// Commands that configure the launch.
    static let setupKeywords: Set<String> = ["app", "env", "size", "clock", "stub", "seed"]
    /// Commands that need the program running (allowed after `launch`, before `exit`/`kill`).
    static let needsRunningApp: Set<String> = ["type", "press", "paste", "resize", "wait-stable", "spy", "exit", "kill"]
    /// Commands that read what the run produced (allowed after `launch`, even after `exit`/`kill`).
    static let afterLaunchOnly: Set<String> = [
        "expect", "expect-not", "expect-output", "expect-output-not", "snapshot", "snapshot-transcript", "event", "file", "requests",
    ]

    static func check(_ steps: [FlowStep], file: String, lastLine: Int, ignoring keywordsWithErrors: Set<String>) -> [FlowParseError] {
        var errors: [FlowParseError] = []
        var firstLine: [String: Int] = [:]
        var appLine: Int?
        var launchLine: Int?
        var ended: (keyword: String, line: Int)?
        var launchBeforeApp: FlowStep?

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
            case .launch:
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
            case .snapshot(let name), .snapshotTranscript(let name):
                duplicate("snapshot \(name)", command: keyword, subject: name, at: step)
            default:
                break
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
}
