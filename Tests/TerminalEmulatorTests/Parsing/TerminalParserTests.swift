import Testing
@testable import TerminalEmulator

@Suite struct TerminalParserTests {
    @Test func printsAndExecutes() {
        #expect(parse(Array("a\tb\r\n".utf8)).events == [
            .print("a"), .execute(9), .print("b"), .execute(13), .execute(10),
        ])
    }

    @Test func deleteIsIgnoredInGround() {
        #expect(parse([0x61, 0x7F, 0x62]).events == prints("ab"))
    }

    @Test func controlSequenceWithParameters() {
        #expect(parse(Array("\(CSI)1;22H\(CSI)m\(CSI);5H".utf8)).events == [
            .csi("1;22", "", "H"), .csi("", "", "m"), .csi("0;5", "", "H"),
        ])
    }

    @Test func privateMarkerAndIntermediates() {
        #expect(parse(Array("\(CSI)?1049h\(CSI)>c\(CSI)!p\(CSI)2 q".utf8)).events == [
            .csi("1049", "?", "h"), .csi("", ">", "c"), .csi("", "!", "p"), .csi("2", " ", "q"),
        ])
    }

    @Test func colonSubparametersAreKept() {
        let (events, _) = parse(Array("\(CSI)38:2::10:20:30m".utf8))
        #expect(events == [.csi("38:2:0:10:20:30", "", "m")])
    }

    @Test func parameterValuesSaturate() {
        #expect(parse(Array("\(CSI)99999999A".utf8)).events == [.csi("65535", "", "A")])
    }

    @Test func tooManyParametersDropTheSequence() {
        let params = (0..<40).map(String.init).joined(separator: ";")
        let (events, parser) = parse(Array("\(CSI)\(params)mX".utf8))
        #expect(events == prints("X"))
        #expect(parser.malformedSequenceCount == 1)
    }

    @Test func markerAfterParameterIgnoresSequence() {
        let (events, parser) = parse(Array("\(CSI)1?hX".utf8))
        #expect(events == prints("X"))
        #expect(parser.malformedSequenceCount == 1)
    }

    @Test func controlsInsideSequenceExecute() {
        #expect(parse(Array("\(CSI)1\r;2H".utf8)).events == [.execute(13), .csi("1;2", "", "H")])
    }

    @Test func cancelAbortsSequence() {
        let (events, parser) = parse(Array("\(CSI)12\u{18}A".utf8))
        #expect(events == [.execute(0x18), .print("A")])
        #expect(parser.malformedSequenceCount == 1)
    }

    @Test func escapeSequences() {
        #expect(parse(Array("\(ESC)7\(ESC)(0\(ESC)#8\(ESC)M".utf8)).events == [
            .esc("", "7"), .esc("(", "0"), .esc("#", "8"), .esc("", "M"),
        ])
    }

    @Test func escapeInsideSequenceRestarts() {
        #expect(parse(Array("\(CSI)12\(CSI)3A".utf8)).events == [.csi("3", "", "A")])
    }

    @Test func oscTerminatedByBellOrStringTerminator() {
        #expect(parse(Array("\(ESC)]0;hi ✓\u{07}\(ESC)]2;two\(ESC)\\x".utf8)).events == [
            .osc("0;hi ✓", bell: true), .osc("2;two", bell: false), .esc("", "\\"), .print("x"),
        ])
    }

    @Test func oscPayloadIsCapped() {
        let long = String(repeating: "a", count: TerminalParser.oscCapacity + 100)
        let (events, parser) = parse(Array("\(ESC)]2;\(long)\u{07}".utf8))
        guard case let .osc(payload, _) = events.first else {
            Issue.record("no OSC event: \(events)")
            return
        }
        #expect(payload.utf8.count == TerminalParser.oscCapacity)
        #expect(parser.malformedSequenceCount == 1)
    }

    @Test func deviceControlStringHooksPutsAndUnhooks() {
        #expect(parse(Array("\(ESC)P1$qm\(ESC)\\".utf8)).events == [
            .hook("1", "$", "q"), .put(UInt8(ascii: "m")), .unhook, .esc("", "\\"),
        ])
    }

    @Test func sosPmApcStringsAreSkipped() {
        #expect(parse(Array("\(ESC)_hidden\(ESC)\\\(ESC)^pm\u{18}ok".utf8)).events == [
            .esc("", "\\"), .execute(0x18), .print("o"), .print("k"),
        ])
    }

    @Test func decodesUTF8() {
        #expect(parse(Array("é中😀".utf8)).events == prints("é中😀"))
    }

    @Test(arguments: [
        ([0xFF, 0x61], "\u{FFFD}a"),                 // invalid byte
        ([0x80, 0x61], "\u{FFFD}a"),                 // stray continuation
        ([0xC0, 0xAF], "\u{FFFD}\u{FFFD}"),          // overlong lead
        ([0xE4, 0xB8, 0x61], "\u{FFFD}a"),           // truncated by ASCII
        ([0xED, 0xA0, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}"), // surrogate
        ([0xF4, 0x90, 0x80, 0x80], "\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}"), // above U+10FFFF
        ([0xE4, 0xB8, 0x0D], "\u{FFFD}"),            // truncated by a control (then CR executes)
    ] as [([UInt8], String)])
    func invalidUTF8BecomesReplacementCharacter(bytes: [UInt8], printed: String) {
        let events = parse(bytes).events.filter { if case .print = $0 { return true } else { return false } }
        #expect(events == prints(printed))
    }

    @Test func truncatedUTF8BeforeEscapeIsReplaced() {
        #expect(parse([0xE4, 0xB8, 0x1B, 0x5B, 0x41]).events == [.print("\u{FFFD}"), .csi("", "", "A")])
    }

    static let splitInputs: [String] = [
        "héllo 中文 😀 e\u{301}",
        "\(CSI)38;2;10;20;30mX\(CSI)?1049h\(CSI)1;5H",
        "\(ESC)]0;tïtle\u{07}\(ESC)]2;t\(ESC)\\after",
        "\(ESC)(0lqk\(ESC)(B\(ESC)P1$qm\(ESC)\\\(ESC)#8",
        "\(CSI)38:2::1:2:3m\u{1B}7\(CSI)?25l",
    ]

    @Test(arguments: splitInputs)
    func splitAtEveryByteBoundaryGivesSameEvents(input: String) {
        let bytes = Array(input.utf8)
        let whole = parse(bytes).events
        for cut in 1..<bytes.count {
            #expect(parse(bytes, splits: [cut]).events == whole, "split at byte \(cut)")
        }
        #expect(parse(bytes, splits: Array(1..<bytes.count)).events == whole, "one byte at a time")
    }
}
