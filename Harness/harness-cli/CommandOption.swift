/// One option of a subcommand: what its parser accepts (`CommandArguments(_:options:)`) and what
/// its help prints (`harness help COMMAND`, `harness COMMAND --help`), from the same table.
struct CommandOption: Sendable {
    /// The name without `--` (`jobs`).
    let name: String
    /// What the value looks like (`N`, `FILE`, `on|off|retain-on-failure`); nil for a flag.
    let value: String?
    /// What it does, for the help.
    let summary: String
    /// Required options are written without brackets in the usage line.
    var required = false
    /// A one-letter alias with one `-` (`s` for `-s`), or nil.
    var short: Character?

    /// `--jobs N` (or `--flag`).
    var spelling: String { "--\(name)" + (value.map { " \($0)" } ?? "") }
}
