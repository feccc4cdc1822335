import Foundation
import Testing
import TodoCore

@Suite struct TodoListStateCodableTests {
    @Test(arguments: TodoListState.sampleNames)
    func samplesRoundTripThroughJSON(name: String) throws {
        let state = try #require(TodoListState.sample(named: name))
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(TodoListState.self, from: data) == state)
    }

    @Test func shortFormsDecode() throws {
        let error = try JSONDecoder().decode(TodoListState.self, from: Data(#"{"status":"error","reason":"boom"}"#.utf8))
        #expect(error == TodoListState(status: .error(reason: "boom")))
        let idle = try JSONDecoder().decode(TodoListState.self, from: Data(#"{"status":"idle"}"#.utf8))
        #expect(idle == TodoListState())
    }

    @Test func anUnknownStatusIsAClearError() {
        #expect {
            _ = try JSONDecoder().decode(TodoListState.self, from: Data(#"{"status":"sleeping"}"#.utf8))
        } throws: { error in
            String(describing: error).contains("unknown status \"sleeping\"")
        }
    }

    @Test func unknownSampleNamesAreNil() {
        #expect(TodoListState.sample(named: "nope") == nil)
    }
}
