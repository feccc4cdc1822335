import Foundation

/// The order in which the app shows todos: by title, then by id.
///
/// Titles compare case- and diacritic-insensitively on a locale-independent fold, then by
/// their exact Unicode scalars, then by id, so the order is total and the same on every
/// machine whatever its locale (`"apple" < "eclair" < "Éclair" < "zebra"`).
public enum TodoOrdering {
    /// Returns `todos` in display order. Stable: equal keys keep their input order.
    public static func sorted(_ todos: [Todo]) -> [Todo] {
        let keyed = todos.enumerated().map { (offset, todo) in
            (key: SortKey(todo), offset: offset, todo: todo)
        }
        return keyed.sorted { lhs, rhs in
            if lhs.key != rhs.key { return lhs.key < rhs.key }
            return lhs.offset < rhs.offset
        }.map(\.todo)
    }

    /// Whether `lhs` comes before `rhs` in display order.
    public static func areInIncreasingOrder(_ lhs: Todo, _ rhs: Todo) -> Bool {
        SortKey(lhs) < SortKey(rhs)
    }

    private struct SortKey: Comparable {
        let folded: [UInt32]
        let exact: [UInt32]
        let id: Int

        init(_ todo: Todo) {
            let folded = todo.title.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            self.folded = folded.unicodeScalars.map { $0.value }
            self.exact = todo.title.precomposedStringWithCanonicalMapping.unicodeScalars.map { $0.value }
            self.id = todo.id
        }

        static func < (lhs: SortKey, rhs: SortKey) -> Bool {
            if lhs.folded != rhs.folded { return lhs.folded.lexicographicallyPrecedes(rhs.folded) }
            if lhs.exact != rhs.exact { return lhs.exact.lexicographicallyPrecedes(rhs.exact) }
            return lhs.id < rhs.id
        }
    }
}
