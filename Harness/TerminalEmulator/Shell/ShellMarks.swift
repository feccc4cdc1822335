/// What the program reported about itself through OSC sequences other than the title: the
/// shell's OSC 133 marks as a list of commands, and its OSC 52 clipboard writes. The screen
/// keeps one; a snapshot copies its (copy-on-write) arrays.
struct ShellMarks: Equatable {
    /// Commands and clipboard writes kept; older ones are dropped (their numbers stay).
    static let capacity = 1000

    /// The latest commands, oldest first.
    private(set) var commands: [ShellCommand] = []
    /// How many commands ever started (the next one's number).
    private(set) var startedCount = 0
    /// How many ever finished with a D mark or were ended by a new prompt.
    private(set) var finishedCount = 0
    /// The latest clipboard writes, oldest first.
    private(set) var clipboardWrites: [ClipboardWrite] = []
    /// How many clipboard writes ever came.
    private(set) var clipboardWriteCount = 0

    // MARK: - OSC 133

    /// `A`: a prompt starts (a command still running is over).
    mutating func promptStarted(line: Int) {
        endRunning()
        append(ShellCommand(number: startedCount, phase: .prompt, promptLine: line))
    }

    /// `B`: the command line starts at `line`, `column`.
    mutating func inputStarted(line: Int, column: Int) {
        if let last = commands.indices.last, commands[last].phase == .prompt {
            commands[last].phase = .input
            commands[last].inputLine = line
            commands[last].inputColumn = column
            return
        }
        endRunning()
        var command = ShellCommand(number: startedCount, phase: .input, inputLine: line)
        command.inputColumn = column
        append(command)
    }

    /// `C`: the command runs; `commandText` is the command line the screen shows from the B mark.
    mutating func outputStarted(line: Int, commandText: String?) {
        if let last = commands.indices.last, commands[last].phase == .prompt || commands[last].phase == .input {
            commands[last].phase = .running
            commands[last].outputLine = line
            commands[last].commandText = commandText
            return
        }
        endRunning()
        append(ShellCommand(number: startedCount, phase: .running, outputLine: line))
    }

    /// `D [; STATUS]`: the running command finished. Without a running command (a prompt whose
    /// line was empty, the first prompt of bash's `PROMPT_COMMAND`) it means nothing.
    mutating func commandFinished(line: Int, status: Int?) {
        guard let last = commands.indices.last, commands[last].phase == .running else { return }
        commands[last].phase = .finished
        commands[last].endLine = line
        commands[last].exitStatus = status
        finishedCount += 1
    }

    private mutating func endRunning() {
        guard let last = commands.indices.last, commands[last].phase == .running else { return }
        commands[last].phase = .finished
        finishedCount += 1
    }

    private mutating func append(_ command: ShellCommand) {
        startedCount += 1
        if commands.count == Self.capacity { commands.removeFirst(Self.capacity / 10) }
        commands.append(command)
    }

    // MARK: - OSC 52

    mutating func clipboardWritten(_ write: ClipboardWrite) {
        clipboardWriteCount += 1
        if clipboardWrites.count == Self.capacity { clipboardWrites.removeFirst(Self.capacity / 10) }
        clipboardWrites.append(write)
    }
}
