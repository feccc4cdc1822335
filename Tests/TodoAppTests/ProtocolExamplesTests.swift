import Foundation
import Harness
import HarnessWire
import Testing
import TestSupport

/// docs/PROTOCOL.md's example calls, made to the real sample app over the bridge: each `call`
/// line of the example block must get exactly the `reply` line that follows it.
@Suite struct ProtocolExamplesTests {
    /// The `call`/`reply` pairs of the first JSON block of section 4, as JSON objects.
    static func exampleCalls() throws -> [(call: [String: Any], reply: [String: Any])] {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/PROTOCOL.md").standardized
        let text = try String(contentsOf: docs, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        var pairs: [(call: [String: Any], reply: [String: Any])] = []
        var pending: [String: Any]?
        for line in lines where line.hasPrefix("{\"type\":") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
            switch object["type"] as? String {
            case "call": pending = object
            case "reply":
                if let call = pending { pairs.append((call, object)) }
                pending = nil
            default: break
            }
        }
        return pairs
    }

    /// JSON text with sorted keys, for comparing values whatever the key order.
    static func canonical(_ value: Any?) throws -> String {
        guard let value, !(value is NSNull) else { return "null" }
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func everyExampleCallGetsTheDocumentedReply() async throws {
        let pairs = try Self.exampleCalls()
        #expect(pairs.count >= 3, "the example block lost its calls")
        var launch = AppLaunch(executable: try BuildProducts.executable(named: "todo").path)
        launch.launchProtocol = .bridge
        launch.unsetEnvironment = ["NO_COLOR"]
        launch.defaultTimeout = mustSucceedTimeout
        try await TerminalApp.with(launch) { app in
            let bridge = try app.bridge
            for (call, reply) in pairs {
                let name = try #require(call["name"] as? String)
                let params = try RawJSON(validating: Data(try Self.canonical(call["params"]).utf8))
                let expectedError = reply["error"] as? [String: Any]
                do {
                    let result = try await bridge.callRaw(name, params: params)
                    #expect(expectedError == nil, "\(name) answered \(result.text), the docs show an error")
                    let actual = try Self.canonical(try JSONSerialization.jsonObject(with: result.data, options: .fragmentsAllowed))
                    #expect(actual == (try Self.canonical(reply["result"])), "\(name) answered \(actual)")
                } catch BridgeError.unknownName(let unknown, let available) {
                    // The client turns the `unknownName` reply into its own error, keeping the list.
                    let expected = try #require(expectedError, "\(name) is unknown to the app")
                    #expect(expected["code"] as? String == "unknownName")
                    #expect(unknown == name)
                    #expect(available == expected["available"] as? [String])
                } catch BridgeError.remoteError(_, let code, let message) {
                    let expected = try #require(expectedError, "\(name) failed: \(code) \(message)")
                    #expect(code == expected["code"] as? String)
                    #expect(message == expected["message"] as? String)
                }
            }
        }
    }
}
