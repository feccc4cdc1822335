import Testing
import TodoCore

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("abc", 3), ("中文", 4), ("e\u{301}", 1), ("👍", 2), ("ｆｕｌｌ", 8), ("한글", 4), ("✓", 1), ("❤️", 2), ("", 0),
    ])
    func measuresColumns(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    @Test(arguments: [
        ("hello world", 5, "hell…"),
        ("hello", 5, "hello"),
        ("中文中文", 5, "中文…"),
        ("中文中文", 4, "中…"),
        ("ab中", 3, "ab…"),
        ("x", 0, ""),
        ("abc", 1, "…"),
    ])
    func truncatesAtDisplayWidth(text: String, width: Int, expected: String) {
        let cut = DisplayWidth.truncate(text, toWidth: width)
        #expect(cut == expected)
        #expect(DisplayWidth.of(cut) <= width)
    }
}
