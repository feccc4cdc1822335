import Testing
import TodoCore

@Suite struct TodoOrderingTests {
    static func todos(_ titles: [String]) -> [Todo] {
        titles.enumerated().map { Todo(userId: 1, id: $0.offset + 1, title: $0.element, completed: false) }
    }

    @Test(arguments: [
        (["b", "a", "c"], ["a", "b", "c"]),
        (["Banana", "apple", "cherry"], ["apple", "Banana", "cherry"]),
        (["zèbre", "Éclair", "eclair", "apple"], ["apple", "eclair", "Éclair", "zèbre"]),
        (["日本", "中文", "abc", "Ärger", "Zoo"], ["abc", "Ärger", "Zoo", "中文", "日本"]),
        (["e\u{301}t\u{E9}", "\u{E9}te"], ["\u{E9}te", "e\u{301}t\u{E9}"]),
        (["", "a", " a"], ["", " a", "a"]),
    ])
    func sortsByTitleWhateverTheLocale(input: [String], expected: [String]) {
        #expect(TodoOrdering.sorted(Self.todos(input)).map(\.title) == expected)
    }

    @Test func equalTitlesAreOrderedById() {
        let todos = [
            Todo(userId: 1, id: 9, title: "same", completed: false),
            Todo(userId: 2, id: 2, title: "same", completed: true),
            Todo(userId: 3, id: 5, title: "same", completed: false),
        ]
        #expect(TodoOrdering.sorted(todos).map(\.id) == [2, 5, 9])
    }

    @Test func fullyEqualTodosKeepTheirOrder() {
        let a = Todo(userId: 1, id: 1, title: "x", completed: false)
        let b = Todo(userId: 2, id: 1, title: "x", completed: true)
        #expect(TodoOrdering.sorted([a, b]) == [a, b])
        #expect(TodoOrdering.sorted([b, a]) == [b, a])
    }

    @Test func sortingIsIdempotentAndIndependentOfInputOrder() {
        let titles = (0 ..< 200).map { "t\(($0 * 7919) % 200) \(["a", "B", "é", "中"][$0 % 4])" }
        let once = TodoOrdering.sorted(Self.todos(titles))
        #expect(TodoOrdering.sorted(once) == once)
        #expect(TodoOrdering.sorted(once.reversed()) == once)
        for (lhs, rhs) in zip(once, once.dropFirst()) {
            #expect(!TodoOrdering.areInIncreasingOrder(rhs, lhs))
        }
    }
}
