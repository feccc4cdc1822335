import Foundation
import HarnessSystem
import TerminalEmulator

/// PNG pictures of a screen snapshot (``ScreenRasterizer`` over GNU Unifont, ``PNGEncoder``):
/// what a failure leaves beside its SVG, for places that show no SVG (a pull request's body,
/// a chat, an issue tracker).
///
/// ```swift
/// let png = try ScreenPNG.render(terminal.snapshot())
/// ```
package enum ScreenPNG {
    /// The PNG of `snapshot` in `palette`'s colors (default: those of the snapshot's theme, as
    /// its SVG), drawn with `font` (by default the one ``UnifontFont/load(path:environment:)`` finds).
    package static func render(
        _ snapshot: ScreenSnapshot, palette: TerminalPalette? = nil, font: UnifontFont? = nil
    ) throws(PictureError) -> [UInt8] {
        let chosen: UnifontFont
        if let font { chosen = font } else { chosen = try UnifontFont.load() }
        var rasterizer = ScreenRasterizer(font: chosen, palette: palette ?? TerminalPalette(theme: snapshot.theme))
        return PNGEncoder.encode(rasterizer.raster(of: snapshot))
    }

    private static let warned = Locked(false)

    /// The PNG a failure leaves, or nil when there is no font: then the first failure of the
    /// process says why on standard error (the SVG and the text are left as always).
    package static func failurePicture(of snapshot: ScreenSnapshot, palette: TerminalPalette? = nil) -> [UInt8]? {
        do {
            return try render(snapshot, palette: palette)
        } catch {
            if !warned.withLock({ warned in defer { warned = true }; return warned }) {
                FileHandle.standardError.write(Data("harness: no PNG of the screen: \(error)\n".utf8))
            }
            return nil
        }
    }
}
