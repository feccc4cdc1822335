/// The size in pixels the harness's terminal gives a cell. The terminal has no font, so the
/// size is fixed: 10 pixels wide and 20 high. It is what the pty's window size says
/// (`ws_xpixel`, `ws_ypixel`), what the terminal answers to `CSI 14 t` (the text area) and
/// `CSI 16 t` (one cell), and what pixel mouse reports (mode 1016) are computed with: an
/// event on a cell is reported at the pixel in its middle, so a program that divides by the
/// cell size finds the cell again, whether it counts pixels from 0 or from 1.
public struct CellPixelSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int

    /// The harness's cell: 10 x 20 pixels.
    public static let standard = CellPixelSize(width: 10, height: 20)

    private init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The 1-based pixel column and row a mouse report names for a 0-based cell: the middle
    /// of the cell (column 4 is pixels 41...50 counted from 1, reported as 46).
    public func reportedPixel(row: Int, col: Int) -> (x: Int, y: Int) {
        (col * width + width / 2 + 1, row * height + height / 2 + 1)
    }

    /// `"10x20 pixels"`.
    public var description: String { "\(width)x\(height) pixels" }
}
