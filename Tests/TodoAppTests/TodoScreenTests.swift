import Testing
import TodoCore
@testable import todo

@Suite struct TodoScreenTests {
    /// The text of a frame: escape sequences dropped, one entry per positioned row.
    static func rows(_ frame: String) -> [String] {
        var rows: [String] = []
        var current = ""
        var index = frame.startIndex
        while index < frame.endIndex {
            if frame[index] == "\u{1B}" {
                var end = frame.index(after: index)
                if end < frame.endIndex, frame[end] == "[" { end = frame.index(after: end) }
                while end < frame.endIndex, !(frame[end].isLetter) { end = frame.index(after: end) }
                if end < frame.endIndex, frame[end] == "H" { rows.append(current); current = "" }
                index = end < frame.endIndex ? frame.index(after: end) : end
            } else {
                current.append(frame[index])
                index = frame.index(after: index)
            }
        }
        rows.append(current)
        return Array(rows.dropFirst())
    }

    @Test(arguments: [(40, 12), (80, 24), (300, 100)])
    func everyStatusFitsTheScreen(cols: Int, rows: Int) {
        let todos = (1 ... 150).map { Todo(userId: 1, id: $0, title: "中文 title number \($0) " + String(repeating: "long ", count: 80), completed: $0 % 2 == 0) }
        let states: [TodoListState] = [
            TodoListState(), TodoListState(status: .loading),
            TodoListState(status: .error(reason: String(repeating: "The server did not answer in time. ", count: 20))),
            TodoListState(status: .loaded(todos), pageSize: TodoScreen.pageSize(rows: rows)),
        ]
        for state in states {
            for color in [true, false] {
                let lines = Self.rows(TodoScreen(cols: cols, rows: rows, color: color).render(state))
                #expect(lines.count == rows)
                for line in lines { #expect(DisplayWidth.of(line) <= cols, "\(line)") }
            }
        }
    }

    @Test func idleShowsTheStartButtonAndErrorTheReason() {
        let idle = Self.rows(TodoScreen(cols: 80, rows: 24, color: true).render(TodoListState())).joined(separator: "\n")
        #expect(idle.contains("[ Start ]"))
        let error = Self.rows(TodoScreen(cols: 80, rows: 24, color: true).render(TodoListState(status: .error(reason: "Network error.")))).joined(separator: "\n")
        #expect(error.contains("Oops"))
        #expect(error.contains("Network error."))
        #expect(error.contains("[ Try again ]"))
    }

    /// The parameters of every SGR sequence (`ESC [ ... m`) in `frame`.
    static func sgrParameters(_ frame: String) -> [Int] {
        let pattern = /\x1B\[([0-9;]*)m/
        return frame.matches(of: pattern).flatMap { match in
            match.output.1.split(separator: ";").compactMap { Int($0) }
        }
    }

    @Test func noColorMeansNoColorSequences() {
        let todos = [Todo(userId: 1, id: 1, title: "a", completed: true), Todo(userId: 1, id: 2, title: "b", completed: false)]
        let states = [TodoListState(), TodoListState(status: .loading), TodoListState(status: .error(reason: "x")), TodoListState(status: .loaded(todos))]
        let isColor: (Int) -> Bool = { (30 ... 49).contains($0) || (90 ... 107).contains($0) }
        for state in states {
            #expect(!Self.sgrParameters(TodoScreen(cols: 80, rows: 24, color: false).render(state)).contains(where: isColor))
        }
        #expect(states.contains { Self.sgrParameters(TodoScreen(cols: 80, rows: 24, color: true).render($0)).contains(where: isColor) })
    }

    @Test func loadedShowsTheCountMarksAndTheVisiblePage() {
        let todos = (1 ... 30).map { Todo(userId: 1, id: $0, title: "t\($0)", completed: $0 == 2) }
        let state = TodoListState(status: .loaded(todos), selection: 29, scrollOffset: 20, pageSize: 10)
        let lines = Self.rows(TodoScreen(cols: 40, rows: 12, color: false).render(state))
        #expect(lines[0].hasPrefix(" Todos (30)"))
        #expect(lines[0].hasSuffix("30/30 "))
        #expect(lines[1].hasPrefix(" [ ] t21"))
        #expect(lines[10].hasPrefix(" [ ] t30"))
    }
}
