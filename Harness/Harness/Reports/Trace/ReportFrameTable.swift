/// The unique screen pictures of a report: each SVG is kept once and referred to by index, so
/// a screen that many steps, replays and flows show (a menu, an error) costs its bytes once.
public struct ReportFrameTable: Sendable {
    /// The pictures in order of first use.
    public private(set) var frames: [String] = []
    private var indices: [String: Int] = [:]
    private var lastDrawn: (screen: ScreenSnapshot, index: Int)?

    /// An empty table, or one holding `frames` (unique) already.
    public init(frames: [String] = []) {
        for frame in frames { _ = add(svg: frame) }
    }

    /// The index of `svg` (an SVG document; its XML declaration is dropped), added when new.
    public mutating func add(svg: String) -> Int {
        var svg = svg
        if svg.hasPrefix("<?xml"), let end = svg.firstIndex(of: "\n") { svg = String(svg[svg.index(after: end)...]) }
        if let index = indices[svg] { return index }
        frames.append(svg)
        indices[svg] = frames.count - 1
        return frames.count - 1
    }

    /// The index of the picture of `screen`, drawn with ``ScreenSVG`` unless it equals the
    /// screen drawn last (consecutive steps and frames often show the same screen).
    public mutating func add(screen: ScreenSnapshot) -> Int {
        if let last = lastDrawn, last.screen == screen { return last.index }
        let index = add(svg: ScreenSVG.render(screen))
        lastDrawn = (screen, index)
        return index
    }
}
