// libFuzzer target `flow`: the flow parser on arbitrary text.
//
// Input: the text of a `.flow` file (invalid UTF-8 is repaired, as reading a file would).
// Parse errors are fine, crashes are not. An error has a position inside the file and a message.
// A script that parses prints back (`flowText`, one line per command) into text that parses
// again into the same commands.
import FuzzSupport
#if canImport(HarnessFlows)
import HarnessFlows
#else
import Harness
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let source = String(decoding: inputBuffer(data, size), as: UTF8.self)
    let lineCount = source.unicodeScalars.reduce(1) { $1 == "\n" ? $0 + 1 : $0 }
    let script: FlowScript
    do {
        script = try FlowParser.parse(source, file: "fuzz.flow", directory: "/flows")
    } catch {
        fuzzCheck(!error.errors.isEmpty, "a parse failure without errors")
        for parseError in error.errors {
            let position = parseError.position
            fuzzCheck(position.file == "fuzz.flow" && position.line >= 1 && position.line <= lineCount + 1
                      && position.column >= 1, "error position \(position) in a file of \(lineCount) lines")
            fuzzCheck(!parseError.message.isEmpty, "an error without a message at \(position)")
        }
        _ = error.description
        return 0
    }
    let printed = script.steps.map(\.command.flowText).joined(separator: "\n")
    do {
        let again = try FlowParser.parse(printed, file: "fuzz.flow", directory: "/flows")
        fuzzCheck(again.steps.map(\.command) == script.steps.map(\.command),
                  "printed back as\n\(printed)\nit parses into other commands:\n\(again.steps.map(\.command))\ninstead of\n\(script.steps.map(\.command))")
    } catch {
        fuzzCheck(false, "printed back as\n\(printed)\nit does not parse: \(error)")
    }
    return 0
}

runFuzzer(fuzzOneInput)
