import Foundation
import TerminalEmulator

extension SnapshotStrategy where Value == ScreenSnapshot, Format == String {
    /// The screen as framed text (`ScreenSnapshot.framed()`: a box so trailing blanks show, then
    /// the cursor line), with its SVG picture as a companion file.
    public static var framedScreen: SnapshotStrategy<ScreenSnapshot, String> {
        SnapshotStrategy(pathExtension: "txt", diffing: .lines, companions: [.svg]) { $0.framed() }
    }

    /// The screen as framed text, with the style layer when `style`, after `masks` are applied:
    /// `assertSnapshot(of: screen, as: .screen(masks: [.regex(#"\d\d:\d\d"#)], style: true))`.
    ///
    /// With `area`, only that part of the screen is kept (``ScreenSnapshot/region(_:)-(ScreenArea)``):
    /// `.screen(area: .rows(between: "Todos", and: "q quit"))` leaves a status bar's clock out.
    /// Masks apply first, in the whole screen's coordinates; a screen without the area fails the
    /// snapshot with `SnapshotError.snapshotFailed` naming it.
    public static func screen(
        masks: [SnapshotMask] = [], style: Bool = false, area: ScreenArea? = nil
    ) -> SnapshotStrategy<ScreenSnapshot, String> {
        let strategy = (style ? styledScreen : framedScreen).cropping(to: area)
        return strategy.masking(masks)
    }

    /// The transcript as framed text (`ScreenSnapshot.framedTranscript()`): the lines that
    /// scrolled off, then the screen, down to its last non-blank row or the cursor. For
    /// line-oriented programs whose output is longer than a screen.
    public static var transcript: SnapshotStrategy<ScreenSnapshot, String> {
        SnapshotStrategy(pathExtension: "txt", diffing: .lines) { $0.framedTranscript() }
    }

    /// The framed text followed by the style layer (``ScreenStyleLayer``): runs of colors and
    /// attributes, for tests that care about them. The SVG picture is a companion file.
    public static var styledScreen: SnapshotStrategy<ScreenSnapshot, String> {
        SnapshotStrategy(pathExtension: "txt", diffing: .lines, companions: [.svg]) { screen in
            screen.framed() + "\n" + ScreenStyleLayer.text(of: screen)
        }
    }
}

extension SnapshotStrategy where Value == ScreenSnapshot {
    /// This strategy applied to the screen with `masks` applied first, so the text, the style
    /// layer and the SVG picture all show the fill instead of the dynamic content.
    public func masking(_ masks: [SnapshotMask]) -> SnapshotStrategy<ScreenSnapshot, Format> {
        guard !masks.isEmpty else { return self }
        return pullback { (screen: ScreenSnapshot) throws -> ScreenSnapshot in
            try SnapshotMask.apply(masks, to: screen)
        }
    }

    /// This strategy applied to the part of the screen `area` covers (unchanged for nil).
    public func cropping(to area: ScreenArea?) -> SnapshotStrategy<ScreenSnapshot, Format> {
        guard let area else { return self }
        return pullback { (screen: ScreenSnapshot) throws -> ScreenSnapshot in
            do {
                return try screen.region(area)
            } catch {
                throw SnapshotError.snapshotFailed(reason: "\(error)")
            }
        }
    }

    /// This strategy without companion files (no SVG picture).
    public var withoutCompanions: SnapshotStrategy<ScreenSnapshot, Format> {
        var copy = self
        copy.companions = []
        return copy
    }
}

extension SnapshotCompanion where Value == ScreenSnapshot {
    /// The screen's SVG picture (``ScreenSVG``).
    public static var svg: SnapshotCompanion<ScreenSnapshot> {
        SnapshotCompanion(pathExtension: "svg") { Data(ScreenSVG.render($0).utf8) }
    }
}
