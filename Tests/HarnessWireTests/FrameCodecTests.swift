import Foundation
import Testing
@testable import HarnessWire

@Suite struct FrameCodecTests {
    static func raw(_ text: String) -> RawJSON { try! RawJSON(validating: Data(text.utf8)) }

    static let messages: [BridgeMessage] = [
        .hello(version: 1, token: "a1b2", pid: 4242, app: "todo \"quoted\" ünï\n"),
        .welcome(version: 1),
        .refused(code: "badToken", reason: "wrong token"),
        .ready,
        .call(id: 7, name: "given", params: raw(#"{"state":"error","items":[1,2.5e3,-0.5,true,null,"\u00e9\ud83d\ude00"]}"#)),
        .call(id: 8, name: "state", params: .null),
        .reply(id: 7, result: .success(raw(#"[{"userId":1,"id":1,"title":"a","completed":false}]"#))),
        .reply(id: 9, result: .failure(RemoteError(.unknownName, "no 'x'", available: ["a", "b"]))),
        .reply(id: 10, result: .failure(RemoteError(.handlerFailed, "boom\tbang"))),
        .event(seq: 0, name: "state", value: raw(#""loading""#)),
        .record(spy: "database.save", index: 3, value: raw("[]")),
        .goodbye(reason: "bye"),
    ]

    @Test(arguments: messages)
    func roundTrips(message: BridgeMessage) throws {
        let frame = try BridgeFrame.encode(message)
        var decoder = FrameDecoder()
        decoder.append(frame)
        #expect(try decoder.nextMessage() == message)
        #expect(try decoder.nextMessage() == nil)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func byteLayoutIsBigEndianLengthThenJSON() throws {
        let frame = try BridgeFrame.encode(.call(id: 1, name: "state", params: .null))
        let json = #"{"type":"call","id":1,"name":"state","params":null}"#
        #expect(frame == [0, 0, 0, UInt8(json.utf8.count)] + Array(json.utf8))
    }

    @Test func decodesByteByByteAndSeveralFramesPerChunk() throws {
        let frames = Self.messages.map { try! BridgeFrame.encode($0) }
        var decoder = FrameDecoder()
        var decoded: [BridgeMessage] = []
        for byte in frames.joined() {
            decoder.append([byte])
            while let message = try decoder.nextMessage() { decoded.append(message) }
        }
        #expect(decoded == Self.messages)

        var whole = FrameDecoder()
        whole.append(frames.joined())
        var again: [BridgeMessage] = []
        while let message = try whole.nextMessage() { again.append(message) }
        #expect(again == Self.messages)
    }

    @Test func truncatedFrameWaitsForMoreBytes() throws {
        let frame = try BridgeFrame.encode(.ready)
        var decoder = FrameDecoder()
        decoder.append(frame.dropLast())
        #expect(try decoder.nextMessage() == nil)
        decoder.append(frame.suffix(1))
        #expect(try decoder.nextMessage() == .ready)
    }

    @Test func oversizedFrameIsRejectedFromItsHeader() {
        var decoder = FrameDecoder(maxFrameSize: 1024)
        decoder.append([0, 0, 4, 1])  // 1025 bytes announced, none sent
        #expect(throws: WireError.frameTooLarge(length: 1025, limit: 1024)) { try decoder.nextMessage() }
    }

    @Test func encoderRefusesOversizedMessages() {
        let big = Self.raw("\"" + String(repeating: "x", count: 2000) + "\"")
        #expect(throws: WireError.self) {
            try BridgeFrame.encode(.event(seq: 0, name: "e", value: big), maxFrameSize: 1000)
        }
    }

    static func frame(_ payload: String) -> [UInt8] {
        let bytes = Array(payload.utf8)
        let n = UInt32(bytes.count)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + bytes
    }

    @Test(arguments: [
        ("not json at all", "malformed"),
        (#"{"type":"ready"} trailing"#, "malformed"),
        (#"{"type":"event","seq":1,"name":"\u12","value":1}"#, "malformed"),
        (#"{"type":"event","seq":1,"name":"s","value": }"#, "malformed"),
        (#"{"type":"event","seq":1,"name":"s","value":[1]"#, "malformed"),
        (#"{"type":"event","seq":1,"name":"s","value":[1]} x"#, "malformed"),
        // The raw value must be the last member: here it swallows the id.
        (#"{"type":"reply","result":[1],"id":1}"#, "missingField"),
        ("\"just a string\"", "notAnObject"),
        ("[1,2,3]", "notAnObject"),
        (#"{"type":"teleport"}"#, "unknownType"),
        (#"{"id":1}"#, "unknownType"),
        (#"{"type":"call","name":"x"}"#, "missingField"),
        (#"{"type":"call","id":"one","name":"x"}"#, "invalidField"),
        (#"{"type":"call","id":-1,"name":"x"}"#, "invalidField"),
        (#"{"type":"hello","version":1,"token":7,"pid":1,"app":"a"}"#, "invalidField"),
        (#"{"type":"reply","id":1}"#, "missingField"),
    ])
    func badPayloadsThrowTypedErrors(payload: String, kind: String) {
        var decoder = FrameDecoder()
        decoder.append(Self.frame(payload))
        do {
            let message = try decoder.nextMessage()
            Issue.record("decoded \(String(describing: message)) from \(payload)")
        } catch {
            let actual: String
            switch error {
            case .malformedJSON: actual = "malformed"
            case .notAnObject: actual = "notAnObject"
            case .unknownMessageType: actual = "unknownType"
            case .missingField: actual = "missingField"
            case .invalidField: actual = "invalidField"
            default: actual = "\(error)"
            }
            #expect(actual == kind, "\(error.description)")
        }
    }

    /// A raw value is taken as written, whitespace trimmed, without parsing it; decoding it checks it.
    @Test(arguments: [
        (#"{"type":"event","seq":1,"name":"s","value": [1, 2] \#n}"#, "[1, 2]", true),
        (#"{"type":"event","seq":1,"name":"s","value":"}"}"#, #""}""#, false),
        (#"{"type":"event","seq":1,"name":"s","value":[1,2}"#, "[1,2", false),
        (#"{"type":"event","seq":1,"name":"s","value":[1]},{"x":2}"#, #"[1]},{"x":2"#, false),
    ])
    func rawValuesAreTakenUnparsed(payload: String, text: String, decodes: Bool) throws {
        var decoder = FrameDecoder()
        decoder.append(Self.frame(payload))
        let message = try decoder.nextMessage()
        guard case .event(_, _, let value) = message else {
            Issue.record("decoded \(String(describing: message))")
            return
        }
        #expect(value.text == text)
        if decodes {
            #expect(try value.decode(as: [Int].self) == [1, 2])
        } else {
            #expect(throws: (any Error).self) { try value.decode(as: [Int].self) }
        }
    }

    @Test func emptyFrameIsAnError() {
        var decoder = FrameDecoder()
        decoder.append([0, 0, 0, 0])
        #expect(throws: WireError.emptyFrame) { try decoder.nextMessage() }
    }

    @Test func unknownFieldsAreIgnored() throws {
        var decoder = FrameDecoder()
        decoder.append(Self.frame(#"{"type":"welcome","version":1,"future":{"a":[1]}}"#))
        #expect(try decoder.nextMessage() == .welcome(version: 1))
    }

    @Test func rawJSONValidation() throws {
        #expect(throws: WireError.self) { try RawJSON(validating: Data("{".utf8)) }
        #expect(throws: WireError.self) { try RawJSON(validating: Data("1 2".utf8)) }
        #expect(throws: WireError.self) { try RawJSON(validating: Data((("[" * 600) + ("]" * 600)).utf8)) }
        #expect(try RawJSON(validating: Data(" {\"a\": [1, -2.5E+3]} ".utf8)).text == " {\"a\": [1, -2.5E+3]} ")
        struct Point: Codable, Equatable { var x: Int }
        #expect(try RawJSON(encoding: Point(x: 3)).decode(as: Point.self) == Point(x: 3))
    }
}

private func * (text: String, count: Int) -> String { String(repeating: text, count: count) }

@Suite struct ProtocolDocumentExampleTests {
    /// The example in docs/PROTOCOL.md section 3.
    @Test func readyFrameBytesMatchTheDocument() throws {
        let documented: [UInt8] = [
            0x00, 0x00, 0x00, 0x10, 0x7b, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a,
            0x22, 0x72, 0x65, 0x61, 0x64, 0x79, 0x22, 0x7d,
        ]
        #expect(try BridgeFrame.encode(.ready) == documented)
    }

    /// Every example message of docs/PROTOCOL.md section 4 decodes, and encodes back to the same text.
    @Test func exampleMessagesDecodeAndReencodeVerbatim() throws {
        let document = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/PROTOCOL.md")
        let examples = try String(contentsOf: document, encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("{\"type\":") }.map(String.init)
        #expect(examples.count >= 13)
        for example in examples {
            var decoder = FrameDecoder()
            decoder.append(FrameCodecTests.frame(example))
            let message = try #require(try decoder.nextMessage(), "\(example)")
            let encoded = try BridgeFrame.encode(message)
            #expect(String(decoding: encoded.dropFirst(4), as: UTF8.self) == example)
        }
    }
}
