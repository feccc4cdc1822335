/// A resumable byte parser for what terminal programs write: the DEC/VT500 state machine
/// described at https://vt100.net/emu/dec_ansi_parser, with UTF-8 decoding in the ground state.
///
/// Feed it chunks of any size: an escape sequence or a UTF-8 character split across chunks
/// continues with the next chunk. Parameter, intermediate and OSC buffers are capped, so
/// hostile input cannot grow memory. Bytes 0x80-0x9F are UTF-8 continuation bytes, not
/// C1 controls (as in xterm's UTF-8 mode).
///
/// ```swift
/// var parser = TerminalParser()
/// parser.feed(Array("\u{1B}[1mhi".utf8), into: &performer)
/// ```
package struct TerminalParser: Sendable {
    /// Largest OSC payload kept; the rest of a longer one is dropped.
    package static let oscCapacity = 1 << 16  // room for an OSC 52 clipboard write of 48 KiB

    /// The current state (ground between sequences).
    package private(set) var state: ParserState = .ground
    /// Sequences dropped because they were malformed or overflowed a buffer.
    package private(set) var malformedSequenceCount = 0

    private var parameters = CSIParameters()
    private var currentParameter: UInt32 = 0
    private var parameterStarted = false
    private var nextIsSubparameter = false
    private var intermediates = Intermediates()
    private var overflowed = false
    private var osc: [UInt8] = []

    // UTF-8 decoder state.
    private var utf8Scalar: UInt32 = 0
    private var utf8Remaining = 0
    private var utf8Lower: UInt8 = 0x80
    private var utf8Upper: UInt8 = 0xBF

    /// A parser in the ground state.
    package init() {
        osc.reserveCapacity(256)
    }

    /// Parses bytes, calling the performer for each recognised action.
    ///
    /// The common cases run in this loop without a call per byte: runs of printable ASCII,
    /// complete UTF-8 characters, and the parameters and final byte of a control sequence;
    /// every other byte goes through the state machine (`advance`), so the actions are the same.
    package mutating func feed<P: TerminalPerformer>(_ bytes: UnsafeRawBufferPointer, into performer: inout P) {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        var index = 0
        while index < count {
            switch state {
            case .ground where utf8Remaining == 0:
                // A run of printable ASCII goes to the performer in one call. Eight bytes are
                // tested at a time while eight remain, the rest one by one.
                var end = index
                while end &+ 8 <= count {
                    let word = UnsafeRawPointer(base + end).loadUnaligned(as: UInt64.self)
                    let outside = Self.nonPrintableASCII(UInt64(littleEndian: word))
                    if outside != 0 {
                        end += outside.trailingZeroBitCount >> 3
                        break
                    }
                    end &+= 8
                }
                while end < count {
                    let byte = base[end]
                    if byte < 0x20 || byte > 0x7E { break }
                    end &+= 1
                }
                if end > index {
                    performer.printASCII(UnsafeBufferPointer(start: base + index, count: end - index))
                    index = end
                    if index == count { return }
                }
                let byte = base[index]
                index &+= 1
                if byte >= 0x80 {
                    // A whole, valid UTF-8 character in this chunk is decoded here; anything
                    // else (cut by the chunk's end, invalid) goes through the byte-wise decoder.
                    if let (scalar, length) = Self.decodeCharacter(base + index - 1, available: count - index + 1) {
                        performer.print(scalar)
                        index &+= length &- 1
                    } else {
                        decodeUTF8(byte, &performer)
                    }
                } else if byte == 0x1B {
                    enterEscape()
                    if index < count && base[index] == 0x5B { // CSI
                        index &+= 1
                        state = .csiEntry
                    }
                } else if byte < 0x20 {
                    performer.execute(byte)
                }
                // DEL (0x7F) is ignored.

            case .csiEntry, .csiParam:
                // Parameters (digits, ';', ':') and the final byte; anything else takes the
                // state machine's path.
                var byte = base[index]
                if state == .csiEntry {
                    if byte >= 0x3C && byte <= 0x3F {
                        intermediates.privateMarker = byte
                        state = .csiParam
                        index &+= 1
                        if index == count { return }
                        byte = base[index]
                    }
                }
                var current = currentParameter
                var started = parameterStarted
                var subparameter = nextIsSubparameter
                let first = index
                while true {
                    let digit = byte &- 0x30
                    if digit < 10 {
                        current = min(current &* 10 &+ UInt32(digit), 65535)
                        started = true
                    } else if byte == 0x3B || byte == 0x3A {
                        if parameters.count >= CSIParameters.capacity { overflowed = true }
                        parameters.append(UInt16(current), isSubparameter: subparameter)
                        subparameter = byte == 0x3A
                        current = 0
                        started = true
                    } else {
                        break
                    }
                    index &+= 1
                    if index == count { break }
                    byte = base[index]
                }
                currentParameter = current
                parameterStarted = started
                nextIsSubparameter = subparameter
                if index > first { state = .csiParam }
                if index == count { return }
                index &+= 1
                if byte >= 0x40 && byte <= 0x7E {
                    dispatchCSI(byte, &performer)
                } else {
                    advance(byte, &performer)
                }

            default:
                let byte = base[index]
                index &+= 1
                advance(byte, &performer)
            }
        }
    }

    /// For eight bytes read little-endian: the high bit of each byte that is not printable
    /// ASCII (below 0x20 or above 0x7E) is set, and no bit below the first such byte's is
    /// (a borrow or carry only moves upwards from a byte that is outside the range).
    @inline(__always)
    static func nonPrintableASCII(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let below = (word &- ones &* 0x20) & ~word & highs    // a byte < 0x20
        let above = ((word &+ ones &* 0x01) | word) & highs   // a byte >= 0x7F
        return below | above
    }

    /// The scalar of the complete, valid UTF-8 character at `start` (its lead byte >= 0x80)
    /// and its length; nil when it is invalid or longer than `available`.
    @inline(__always)
    private static func decodeCharacter(_ start: UnsafePointer<UInt8>, available: Int) -> (Unicode.Scalar, Int)? {
        let lead = start[0]
        switch lead {
        case 0xC2...0xDF:
            guard available >= 2 else { return nil }
            let b1 = start[1]
            guard b1 & 0xC0 == 0x80 else { return nil }
            return (Unicode.Scalar(UInt32(lead & 0x1F) << 6 | UInt32(b1 & 0x3F))!, 2)
        case 0xE0...0xEF:
            guard available >= 3 else { return nil }
            let b1 = start[1], b2 = start[2]
            let lower: UInt8 = lead == 0xE0 ? 0xA0 : 0x80
            let upper: UInt8 = lead == 0xED ? 0x9F : 0xBF
            guard b1 >= lower, b1 <= upper, b2 & 0xC0 == 0x80 else { return nil }
            let value = UInt32(lead & 0x0F) << 12 | UInt32(b1 & 0x3F) << 6 | UInt32(b2 & 0x3F)
            return (Unicode.Scalar(value)!, 3)
        case 0xF0...0xF4:
            guard available >= 4 else { return nil }
            let b1 = start[1], b2 = start[2], b3 = start[3]
            let lower: UInt8 = lead == 0xF0 ? 0x90 : 0x80
            let upper: UInt8 = lead == 0xF4 ? 0x8F : 0xBF
            guard b1 >= lower, b1 <= upper, b2 & 0xC0 == 0x80, b3 & 0xC0 == 0x80 else { return nil }
            let value = UInt32(lead & 0x07) << 18 | UInt32(b1 & 0x3F) << 12 | UInt32(b2 & 0x3F) << 6 | UInt32(b3 & 0x3F)
            return (Unicode.Scalar(value)!, 4)
        default:
            return nil
        }
    }

    /// Parses bytes (convenience for arrays).
    package mutating func feed<P: TerminalPerformer>(_ bytes: [UInt8], into performer: inout P) {
        bytes.withUnsafeBytes { feed($0, into: &performer) }
    }

    /// Back to the ground state, dropping any partial sequence or character.
    package mutating func reset() {
        state = .ground
        utf8Remaining = 0
        clearSequence()
        osc.removeAll(keepingCapacity: true)
    }

    // MARK: - State machine

    private mutating func advance<P: TerminalPerformer>(_ byte: UInt8, _ performer: inout P) {
        // Transitions from anywhere.
        switch byte {
        case 0x18, 0x1A: // CAN, SUB: abort the sequence.
            leaveString(&performer, dispatchOSC: false)
            flushPartialUTF8(&performer)
            if state != .ground { malformedSequenceCount += 1 }
            state = .ground
            performer.execute(byte)
            return
        case 0x1B:
            leaveString(&performer, dispatchOSC: true)
            flushPartialUTF8(&performer)
            enterEscape()
            return
        default:
            break
        }

        switch state {
        case .ground:
            if byte < 0x20 {
                flushPartialUTF8(&performer)
                performer.execute(byte)
            } else if byte < 0x7F {
                flushPartialUTF8(&performer)
                performer.print(Unicode.Scalar(byte))
            } else if byte == 0x7F {
                flushPartialUTF8(&performer)
            } else {
                decodeUTF8(byte, &performer)
            }

        case .escape:
            switch byte {
            case 0x00...0x1F: performer.execute(byte)
            case 0x20...0x2F: collect(byte); state = .escapeIntermediate
            case 0x50: clearSequence(); state = .dcsEntry
            case 0x58, 0x5E, 0x5F: state = .sosPmApcString
            case 0x5B: clearSequence(); state = .csiEntry
            case 0x5D: osc.removeAll(keepingCapacity: true); state = .oscString
            case 0x30...0x7E: dispatchEscape(byte, &performer)
            default: break // DEL and high bytes are ignored here.
            }

        case .escapeIntermediate:
            switch byte {
            case 0x00...0x1F: performer.execute(byte)
            case 0x20...0x2F: collect(byte)
            case 0x30...0x7E: dispatchEscape(byte, &performer)
            default: break
            }

        case .csiEntry:
            switch byte {
            case 0x00...0x1F: performer.execute(byte)
            case 0x20...0x2F: collect(byte); state = .csiIntermediate
            case 0x30...0x3B: parameterByte(byte); state = .csiParam
            case 0x3C...0x3F: intermediates.privateMarker = byte; state = .csiParam
            case 0x40...0x7E: dispatchCSI(byte, &performer)
            default: break
            }

        case .csiParam:
            switch byte {
            case 0x00...0x1F: performer.execute(byte)
            case 0x30...0x3B: parameterByte(byte)
            case 0x3C...0x3F: state = .csiIgnore
            case 0x20...0x2F: collect(byte); state = .csiIntermediate
            case 0x40...0x7E: dispatchCSI(byte, &performer)
            default: break
            }

        case .csiIntermediate:
            switch byte {
            case 0x00...0x1F: performer.execute(byte)
            case 0x20...0x2F: collect(byte)
            case 0x30...0x3F: state = .csiIgnore
            case 0x40...0x7E: dispatchCSI(byte, &performer)
            default: break
            }

        case .csiIgnore:
            switch byte {
            case 0x00...0x1F: performer.execute(byte)
            case 0x40...0x7E: malformedSequenceCount += 1; state = .ground
            default: break
            }

        case .dcsEntry:
            switch byte {
            case 0x20...0x2F: collect(byte); state = .dcsIntermediate
            case 0x30...0x39, 0x3B: parameterByte(byte); state = .dcsParam
            case 0x3A: state = .dcsIgnore
            case 0x3C...0x3F: intermediates.privateMarker = byte; state = .dcsParam
            case 0x40...0x7E: hook(byte, &performer)
            default: break
            }

        case .dcsParam:
            switch byte {
            case 0x30...0x39, 0x3B: parameterByte(byte)
            case 0x3A, 0x3C...0x3F: state = .dcsIgnore
            case 0x20...0x2F: collect(byte); state = .dcsIntermediate
            case 0x40...0x7E: hook(byte, &performer)
            default: break
            }

        case .dcsIntermediate:
            switch byte {
            case 0x20...0x2F: collect(byte)
            case 0x30...0x3F: state = .dcsIgnore
            case 0x40...0x7E: hook(byte, &performer)
            default: break
            }

        case .dcsPassthrough:
            if byte != 0x7F { performer.put(byte) }

        case .dcsIgnore, .sosPmApcString:
            break

        case .oscString:
            if byte == 0x07 {
                finishParameterlessString(&performer, bell: true)
            } else if byte >= 0x20 {
                if osc.count < Self.oscCapacity { osc.append(byte) } else { overflowed = true }
            }
        }
    }

    @inline(__always)
    private mutating func enterEscape() {
        clearSequence()
        state = .escape
    }

    @inline(__always)
    private mutating func clearSequence() {
        parameters.removeAll()
        currentParameter = 0
        parameterStarted = false
        nextIsSubparameter = false
        intermediates = Intermediates()
        overflowed = false
    }

    @inline(__always)
    private mutating func collect(_ byte: UInt8) {
        if !intermediates.append(byte) { overflowed = true }
    }

    @inline(__always)
    private mutating func parameterByte(_ byte: UInt8) {
        switch byte {
        case 0x30...0x39:
            currentParameter = min(currentParameter &* 10 &+ UInt32(byte - 0x30), 65535)
            parameterStarted = true
        case 0x3A, 0x3B:
            if parameters.count >= CSIParameters.capacity { overflowed = true }
            parameters.append(UInt16(currentParameter), isSubparameter: nextIsSubparameter)
            nextIsSubparameter = byte == 0x3A
            currentParameter = 0
            parameterStarted = true
        default:
            break
        }
    }

    @inline(__always)
    private mutating func finishParameters() {
        if parameterStarted {
            if parameters.count >= CSIParameters.capacity { overflowed = true }
            parameters.append(UInt16(currentParameter), isSubparameter: nextIsSubparameter)
        }
    }

    @inline(__always)
    private mutating func dispatchCSI<P: TerminalPerformer>(_ final: UInt8, _ performer: inout P) {
        state = .ground
        finishParameters()
        if overflowed {
            malformedSequenceCount += 1
            return
        }
        performer.csiDispatch(parameters, intermediates: intermediates, final: final)
    }

    private mutating func dispatchEscape<P: TerminalPerformer>(_ final: UInt8, _ performer: inout P) {
        state = .ground
        if overflowed {
            malformedSequenceCount += 1
            return
        }
        performer.escDispatch(intermediates: intermediates, final: final)
    }

    private mutating func hook<P: TerminalPerformer>(_ final: UInt8, _ performer: inout P) {
        finishParameters()
        if overflowed {
            malformedSequenceCount += 1
            state = .dcsIgnore
            return
        }
        state = .dcsPassthrough
        performer.hook(parameters, intermediates: intermediates, final: final)
    }

    /// Exit actions of string states when ESC, CAN or SUB arrives.
    @inline(__always)
    private mutating func leaveString<P: TerminalPerformer>(_ performer: inout P, dispatchOSC: Bool) {
        switch state {
        case .dcsPassthrough:
            performer.unhook()
        case .oscString:
            if dispatchOSC {
                finishParameterlessString(&performer, bell: false)
            } else {
                osc.removeAll(keepingCapacity: true)
            }
        default:
            break
        }
    }

    private mutating func finishParameterlessString<P: TerminalPerformer>(_ performer: inout P, bell: Bool) {
        state = .ground
        if overflowed { malformedSequenceCount += 1 }
        performer.oscDispatch(osc, bellTerminated: bell)
        osc.removeAll(keepingCapacity: true)
        overflowed = false
    }

    // MARK: - UTF-8

    /// Decodes one byte >= 0x80 in the ground state; invalid input prints U+FFFD
    /// (one per maximal invalid subpart, as the Unicode standard recommends).
    @inline(__always)
    private mutating func decodeUTF8<P: TerminalPerformer>(_ byte: UInt8, _ performer: inout P) {
        if utf8Remaining > 0 {
            if byte >= utf8Lower && byte <= utf8Upper {
                utf8Scalar = utf8Scalar << 6 | UInt32(byte & 0x3F)
                utf8Remaining -= 1
                utf8Lower = 0x80
                utf8Upper = 0xBF
                if utf8Remaining == 0 {
                    performer.print(Unicode.Scalar(utf8Scalar) ?? "\u{FFFD}")
                }
                return
            }
            // Not a valid continuation: the partial character is replaced, the byte starts afresh.
            utf8Remaining = 0
            utf8Lower = 0x80
            utf8Upper = 0xBF
            performer.print("\u{FFFD}")
        }
        switch byte {
        case 0xC2...0xDF:
            utf8Scalar = UInt32(byte & 0x1F); utf8Remaining = 1
        case 0xE0:
            utf8Scalar = 0; utf8Remaining = 2; utf8Lower = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF:
            utf8Scalar = UInt32(byte & 0x0F); utf8Remaining = 2
        case 0xED:
            utf8Scalar = 0x0D; utf8Remaining = 2; utf8Upper = 0x9F
        case 0xF0:
            utf8Scalar = 0; utf8Remaining = 3; utf8Lower = 0x90
        case 0xF1...0xF3:
            utf8Scalar = UInt32(byte & 0x07); utf8Remaining = 3
        case 0xF4:
            utf8Scalar = 4; utf8Remaining = 3; utf8Upper = 0x8F
        default: // 0x80-0xC1 (stray continuation or overlong lead), 0xF5-0xFF.
            performer.print("\u{FFFD}")
        }
    }

    /// A partial UTF-8 character interrupted by a control or ASCII byte becomes U+FFFD.
    @inline(__always)
    private mutating func flushPartialUTF8<P: TerminalPerformer>(_ performer: inout P) {
        if utf8Remaining > 0 {
            utf8Remaining = 0
            utf8Lower = 0x80
            utf8Upper = 0xBF
            if state == .ground { performer.print("\u{FFFD}") }
        }
    }
}
