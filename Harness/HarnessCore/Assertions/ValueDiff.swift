/// Finds the fields in which two values of the same type differ, by reflection.
///
/// Walks structs, classes, tuples, enums' associated values, optionals and collections with
/// `Mirror` and reports each differing leaf with its path, e.g.
/// `status.loaded[2].title: expected "a", got "b"`.
package enum ValueDiff {
    /// One field that differs.
    public struct Difference: Equatable, Sendable, CustomStringConvertible {
        /// The field's path from the root (`""` for the root itself).
        public var path: String
        /// The expected value, printed.
        public var expected: String
        /// The actual value, printed.
        public var actual: String

        public var description: String {
            "\(path.isEmpty ? "value" : path): expected \(expected), got \(actual)"
        }
    }

    /// The differing fields of `expected` and `actual`, at most `limit` of them.
    public static func differences(_ expected: Any, _ actual: Any, limit: Int = 20) -> [Difference] {
        var found: [Difference] = []
        walk(expected, actual, path: "", into: &found, limit: limit)
        return found
    }

    private static func walk(_ expected: Any, _ actual: Any, path: String, into found: inout [Difference], limit: Int) {
        guard found.count < limit else { return }
        let expectedText = String(reflecting: expected)
        let actualText = String(reflecting: actual)
        if expectedText == actualText { return }

        let expectedMirror = Mirror(reflecting: expected)
        let actualMirror = Mirror(reflecting: actual)
        let leaf = Difference(path: path, expected: expectedText, actual: actualText)

        switch (expectedMirror.displayStyle, actualMirror.displayStyle) {
        case (.collection?, .collection?), (.set?, .set?):
            let expectedChildren = Array(expectedMirror.children)
            let actualChildren = Array(actualMirror.children)
            if expectedChildren.count != actualChildren.count {
                found.append(Difference(path: join(path, ".count"), expected: "\(expectedChildren.count)", actual: "\(actualChildren.count)"))
            }
            for index in 0 ..< min(expectedChildren.count, actualChildren.count) {
                walk(expectedChildren[index].value, actualChildren[index].value, path: "\(path)[\(index)]", into: &found, limit: limit)
            }
        case (.struct?, .struct?), (.class?, .class?), (.tuple?, .tuple?):
            let expectedChildren = Array(expectedMirror.children)
            let actualChildren = Array(actualMirror.children)
            guard expectedChildren.count == actualChildren.count, !expectedChildren.isEmpty else {
                found.append(leaf)
                return
            }
            for (offset, (e, a)) in zip(expectedChildren, actualChildren).enumerated() {
                let label = e.label ?? ".\(offset)"
                walk(e.value, a.value, path: join(path, label.hasPrefix(".") ? label : "." + label), into: &found, limit: limit)
            }
        case (.enum?, .enum?), (.optional?, .optional?):
            // Same case with associated values: compare the payloads; otherwise the case differs.
            let e = expectedMirror.children.first
            let a = actualMirror.children.first
            if let e, let a, e.label == a.label {
                let label = expectedMirror.displayStyle == .optional ? "" : "." + (e.label ?? "")
                walk(e.value, a.value, path: join(path, label), into: &found, limit: limit)
            } else {
                found.append(leaf)
            }
        default:
            found.append(leaf)
        }
    }

    private static func join(_ path: String, _ component: String) -> String {
        guard component.hasPrefix(".") else { return path + component }
        return path.isEmpty ? String(component.dropFirst()) : path + component
    }
}
