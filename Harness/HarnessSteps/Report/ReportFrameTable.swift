import HarnessCore
import TerminalEmulator
/// The unique screen pictures of a report: each SVG is kept once and referred to by index, so
/// a screen that many steps, replays and flows show (a menu, an error) costs its bytes once.
public struct ReportFrameTable: Sendable {
    /// The pictures in order of first use.
    public private(set) var frames: [String] = []
    private var indices: [String: Int] = [:]
    /// The screens drawn last, newest last (a step's screen comes back as a replay frame).
    private var recentlyDrawn: [(screen: ScreenSnapshot, index: Int)] = []
    private static let recentLimit = 32

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

    /// The index of the picture of `screen`, drawn with ``ScreenSVG`` unless it equals one of
    /// the last screens drawn (steps and replay frames of one attempt often show the same
    /// screen; comparing cells costs far less than drawing).
    public mutating func add(screen: ScreenSnapshot) -> Int {
        if let found = recentlyDrawn.last(where: { $0.screen == screen }) { return found.index }
        let index = add(svg: ScreenSVG.render(screen))
        recentlyDrawn.append((screen, index))
        if recentlyDrawn.count > Self.recentLimit { recentlyDrawn.removeFirst() }
        return index
    }
}
