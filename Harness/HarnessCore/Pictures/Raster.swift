/// A picture as rows of pixels, each `0xRRGGBB`, top row first: what ``ScreenRasterizer`` draws
/// and the PNG and GIF encoders write.
package struct Raster: Sendable, Equatable {
    /// Width in pixels.
    package let width: Int
    /// Height in pixels.
    package let height: Int
    /// `width * height` pixels, row by row.
    package var pixels: [UInt32]

    /// A picture of one color.
    package init(width: Int, height: Int, color: UInt32) {
        self.width = width
        self.height = height
        pixels = [UInt32](repeating: color, count: width * height)
    }

    /// The pixel at column `x` of row `y`.
    package subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// Fills the rectangle (clipped to the picture) with `color`.
    package mutating func fill(x: Int, y: Int, width: Int, height: Int, color: UInt32) {
        for row in max(0, y)..<min(self.height, y + height) {
            let base = row * self.width
            for col in max(0, x)..<min(self.width, x + width) { pixels[base + col] = color }
        }
    }

    /// This picture cut or padded with `color` to `width` × `height` (its top left corner kept).
    package func fitted(width: Int, height: Int, color: UInt32) -> Raster {
        if width == self.width, height == self.height { return self }
        var out = Raster(width: width, height: height, color: color)
        for row in 0..<min(height, self.height) {
            for col in 0..<min(width, self.width) { out[col, row] = self[col, row] }
        }
        return out
    }
}
