extension Key {
    /// The bytes xterm sends for this key. In application cursor-key mode (DECCKM, `CSI ? 1 h`)
    /// arrows, Home and End are sent as SS3 sequences (`ESC O A`) instead of CSI (`ESC [ A`).
    public func encoded(applicationCursorKeys: Bool = false) throws(KeyError) -> [UInt8] {
        switch self {
        case .enter: return [0x0d]
        case .tab: return [0x09]
        case .backTab: return Self.csi + Array("Z".utf8)
        case .backspace: return [0x7f]
        case .escape: return [0x1b]
        case .up, .down, .right, .left, .home, .end:
            let final = cursorFinalByte!
            return (applicationCursorKeys ? Self.ss3 : Self.csi) + [final]
        case .insert, .delete, .pageUp, .pageDown:
            return Self.csi + Array("\(tildeNumber!)~".utf8)
        case .f(let number):
            guard (1...12).contains(number) else { throw .unsupportedFunctionKey(number) }
            if let final = functionFinalByte(number) { return Self.ss3 + [final] }
            return Self.csi + Array("\(Self.functionTildeNumbers[number - 5])~".utf8)
        case .ctrl(let character):
            return [try Self.controlByte(for: character)]
        case .character(let character):
            return Array(String(character).utf8)
        case .alt(let key):
            return try key.encodedWithAlt(applicationCursorKeys: applicationCursorKeys)
        }
    }

    // MARK: - Alt

    /// xterm's modifier parameter for Alt (1 + 2).
    private static let altModifier = 3

    private func encodedWithAlt(applicationCursorKeys: Bool) throws(KeyError) -> [UInt8] {
        switch self {
        case .alt(let inner):
            // Alt twice is still Alt.
            return try inner.encodedWithAlt(applicationCursorKeys: applicationCursorKeys)
        case .up, .down, .right, .left, .home, .end:
            // With a modifier xterm always uses the CSI form: CSI 1 ; 3 A.
            return Self.csi + Array("1;\(Self.altModifier)".utf8) + [cursorFinalByte!]
        case .insert, .delete, .pageUp, .pageDown:
            return Self.csi + Array("\(tildeNumber!);\(Self.altModifier)~".utf8)
        case .f(let number):
            guard (1...12).contains(number) else { throw .unsupportedFunctionKey(number) }
            if let final = functionFinalByte(number) {
                return Self.csi + Array("1;\(Self.altModifier)".utf8) + [final]
            }
            return Self.csi + Array("\(Self.functionTildeNumbers[number - 5]);\(Self.altModifier)~".utf8)
        default:
            // Meta sends Escape: ESC followed by the plain key.
            return [0x1b] + (try encoded(applicationCursorKeys: applicationCursorKeys))
        }
    }

    // MARK: - Tables

    private static let csi: [UInt8] = [0x1b, 0x5b]
    private static let ss3: [UInt8] = [0x1b, 0x4f]
    /// F5 to F12: `CSI 15 ~` ... `CSI 24 ~` (xterm skips 16 and 22).
    private static let functionTildeNumbers = [15, 17, 18, 19, 20, 21, 23, 24]

    private var cursorFinalByte: UInt8? {
        switch self {
        case .up: return UInt8(ascii: "A")
        case .down: return UInt8(ascii: "B")
        case .right: return UInt8(ascii: "C")
        case .left: return UInt8(ascii: "D")
        case .home: return UInt8(ascii: "H")
        case .end: return UInt8(ascii: "F")
        default: return nil
        }
    }

    private var tildeNumber: Int? {
        switch self {
        case .insert: return 2
        case .delete: return 3
        case .pageUp: return 5
        case .pageDown: return 6
        default: return nil
        }
    }

    /// F1 to F4 are `SS3 P` to `SS3 S`.
    private func functionFinalByte(_ number: Int) -> UInt8? {
        (1...4).contains(number) ? UInt8(ascii: "P") + UInt8(number - 1) : nil
    }

    /// The C0 control byte for Ctrl plus `character`, as xterm maps it.
    private static func controlByte(for character: Character) throws(KeyError) -> UInt8 {
        guard let ascii = character.asciiValue else { throw .unsupportedControlCharacter(character) }
        switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return ascii - UInt8(ascii: "a") + 1
        case UInt8(ascii: "@")...UInt8(ascii: "_"): return ascii - UInt8(ascii: "@")  // A-Z [ \ ] ^ _
        case UInt8(ascii: " "): return 0
        case UInt8(ascii: "?"): return 0x7f
        case UInt8(ascii: "2"): return 0  // Ctrl-2 is NUL, like Ctrl-@
        default: throw .unsupportedControlCharacter(character)
        }
    }
}
