import Foundation
import HarnessCore
import TerminalEmulator
import TestSupport
import Testing

/// PNG and GIF pictures of the screen (``ScreenRasterizer``, ``PNGEncoder``, ``GIFEncoder``,
/// ``RecordingPictures``), decoded by Python's standard library (`Scripts/picture-check.py`)
/// and compared pixel by pixel with GNU Unifont's glyphs of the screen's cells.
@Suite struct PicturesTests {
    /// Plain text; every color kind and attribute, a wide character and the cursor.
    static let screens: [(name: String, screen: ScreenSnapshot)] = [("plain", ScreenFixtures.plain()), ("colourful", ScreenFixtures.colourful())]

    @Test(arguments: screens.map(\.name))
    func pngDecodesAndEveryCellMatchesItsGlyph(_ name: String) async throws {
        let screen = try #require(Self.screens.first { $0.name == name }).screen
        try await withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("\(name).png").path
            try Data(ScreenPNG.render(screen)).write(to: URL(fileURLWithPath: path))
            let summary = try await PictureCheck.summary("png", of: path)
            #expect(summary["width"] as? Int == screen.cols * 8)
            #expect(summary["height"] as? Int == screen.rows * 16)
            #expect(summary["chunks"] as? [String] == ["IHDR", "PLTE", "IDAT", "IEND"])
            try await PictureCheck.requireSame(path, as: screen)
        }
    }

    /// The comparison is not a false pass: one pixel off, one color off, or a broken CRC fails.
    @Test func aWrongPictureFailsTheCheck() async throws {
        let screen = ScreenFixtures.colourful()
        var rasterizer = ScreenRasterizer(font: try UnifontFont.load())
        let good = rasterizer.raster(of: screen)
        try await withTemporaryDirectory { folder in
            var pixel = good
            pixel[8 * 2 + 3, 16 * 1 + 7] ^= 0x00FF00  // inside " OK ", row 1
            var color = good
            color.pixels = color.pixels.map { $0 == 0xCD0000 ? 0xCC0000 : $0 }  // bold red drawn a shade off
            for (name, raster) in [("pixel", pixel), ("color", color)] {
                let path = folder.appendingPathComponent("\(name).png").path
                try Data(PNGEncoder.encode(raster)).write(to: URL(fileURLWithPath: path))
                let differences = try #require(try await PictureCheck.differences(of: path, from: screen))
                #expect(differences.contains("cells differ"), "\(name): \(differences)")
            }
            var bytes = PNGEncoder.encode(good)
            bytes[bytes.count - 20] ^= 1  // inside the IDAT's CRC
            let broken = folder.appendingPathComponent("broken.png").path
            try Data(bytes).write(to: URL(fileURLWithPath: broken))
            let output = try await PictureCheck.run(["png", broken])
            #expect(output.status == 1)
            #expect(output.stderr.contains("bad CRC in chunk 'IDAT'"), "\(output.stderr)")
        }
    }

    /// Pictures big and varied enough to fill the LZW table several times (clear codes, 12-bit
    /// codes) and to make DEFLATE reach back across its whole window, decoded exactly.
    @Test func noisyPicturesDecodeToTheirPixels() async throws {
        var raster = Raster(width: 300, height: 200, color: 0)
        var seed: UInt32 = 12_345
        for index in raster.pixels.indices {
            seed = seed &* 1_103_515_245 &+ 12_345
            // 200 colors, in runs of varied length, so both encoders see matches and misses.
            raster.pixels[index] = index % 7 == 0 ? (seed >> 16) % 200 * 0x010101 : raster.pixels[max(0, index - 1)]
        }
        var truecolor = raster
        truecolor.pixels = truecolor.pixels.enumerated().map { $0.element ^ UInt32($0.offset % 300) << 8 }
        try await withTemporaryDirectory { folder in
            var gif = GIFEncoder(width: raster.width, height: raster.height)
            gif.add(raster, delay: 10)
            let files: [(String, [UInt8], Raster)] = [
                ("noise.png", PNGEncoder.encode(raster), raster),
                ("rgb.png", PNGEncoder.encode(truecolor), truecolor),
                ("noise.gif", gif.encoded(), raster),
            ]
            for (name, bytes, expected) in files {
                let path = folder.appendingPathComponent(name).path
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                let output = try await PictureCheck.run(["pixels", path])
                #expect(output.status == 0, "\(name): \(output.stderr)")
                let rows = output.stdout.split(separator: "\n").map { $0.split(separator: " ").compactMap { UInt32($0, radix: 16) } }
                let decoded = rows.flatMap { $0 }
                #expect(decoded.count == expected.pixels.count, "\(name)")
                #expect(decoded == expected.pixels, "\(name): first difference at \((0..<min(decoded.count, expected.pixels.count)).first { decoded[$0] != expected.pixels[$0] } ?? -1)")
            }
        }
    }

    /// A recording becomes one frame per change, each lasting until the next, the pauses as
    /// recorded (or shortened to the idle limit), the last held, looping; the last frame is the
    /// recording's last screen.
    @Test func gifOfARecordingHasAFramePerChangeWithItsDelay() async throws {
        let cast = Asciicast(header: AsciicastHeader(width: 20, height: 3), events: [
            AsciicastEvent(time: 0.1, kind: .output, data: "\u{1B}[?25lone"),
            AsciicastEvent(time: 0.11, kind: .output, data: " two"),  // the same frame: within 40 ms
            AsciicastEvent(time: 0.6, kind: .input, data: "x"),  // input draws nothing
            AsciicastEvent(time: 0.6, kind: .output, data: "\r\nthree"),
            AsciicastEvent(time: 1.6, kind: .output, data: "\r\n\u{1B}[1mfour"),
            AsciicastEvent(time: 9.6, kind: .output, data: "\u{1B}[0m"),  // changes no pixel: the last frame lasts longer
        ])
        let font = try UnifontFont.load()
        try await withTemporaryDirectory { folder in
            let path = folder.appendingPathComponent("a.gif").path
            try Data(RecordingPictures.gif(of: cast, font: font).bytes).write(to: URL(fileURLWithPath: path))
            let summary = try await PictureCheck.summary("gif", of: path)
            #expect(summary["frames"] as? Int == 3)
            #expect(summary["delays"] as? [Int] == [50, 100, 800 + 200])
            #expect(summary["loop"] as? Int == 0)
            #expect(summary["width"] as? Int == 160)
            try await PictureCheck.requireSame(path, as: RecordingPictures.screen(of: cast))

            var timing = RecordingPictures.Timing(maximumIdle: 0.5)
            timing.finalHold = 1
            try Data(RecordingPictures.gif(of: cast, font: font, timing: timing).bytes).write(to: URL(fileURLWithPath: path))
            #expect(try await PictureCheck.summary("gif", of: path)["delays"] as? [Int] == [50, 50, 50 + 100])
        }
    }

    @Test func fontGlyphsComeFromTheHexFile() throws {
        let font = try UnifontFont(bytes: Array("0041:0000000018242442427E424242420000\n4E2D:\(String(repeating: "0100", count: 16))\n".utf8), path: "t.hex")
        #expect(font.glyph(0x41)?.width == 8)
        #expect(font.glyph(0x41)?.rows[4] == 0x1800)
        #expect(font.glyph(0x4E2D)?.width == 16)
        #expect(font.glyph(0x42) == nil)
        #expect(try UnifontFont.load().glyph(0x41) != nil)
    }

    @Test func aMissingOrWrongFontSaysWhatToDo() throws {
        let missing = #expect(throws: PictureError.self) { try UnifontFont.load(path: "/nonexistent/unifont.hex") }
        #expect(missing.map(String.init(describing:))?.contains("cannot read the font /nonexistent/unifont.hex") == true)
        let notFound = PictureError.fontNotFound(searched: ["HARNESS_UNIFONT (unset)"] + UnifontFont.searchPaths)
        #expect(notFound.description.contains("apt-get install unifont) or set HARNESS_UNIFONT"))
        try withTemporaryDirectory { folder in
            let gz = folder.appendingPathComponent("unifont.hex.gz")
            try Data([0x1F, 0x8B, 8, 0]).write(to: gz)
            #expect(throws: PictureError.notAHexFont(path: gz.path, reason: "it is compressed (gzip): decompress it with gunzip and use the .hex")) {
                try UnifontFont.load(path: gz.path)
            }
            let text = folder.appendingPathComponent("notes.txt")
            try Data("hello\n".utf8).write(to: text)
            #expect(throws: PictureError.self) { try UnifontFont.load(path: text.path) }
        }
        #expect(throws: PictureError.fontNotFound(searched: ["HARNESS_UNIFONT (unset)", "/nonexistent/a.hex"])) {
            _ = try UnifontFont.locate(path: nil, environment: [:], searchPaths: ["/nonexistent/a.hex"])
        }
    }

    /// Italic, dim and strikethrough, which the cell comparison leaves out.
    @Test func italicDimAndStrikethroughAreDrawn() throws {
        let terminal = Terminal(cols: 3, rows: 1)
        terminal.feed("\u{1B}[?25l\u{1B}[9m \u{1B}[0;2mA\u{1B}[0;3mA")
        var rasterizer = ScreenRasterizer(font: try UnifontFont.load())
        let raster = rasterizer.raster(of: terminal.snapshot())
        #expect((0..<8).allSatisfy { raster[$0, 8] == 0xD0D0D0 })  // the line through a blank
        #expect(Set((0..<16).flatMap { y in (8..<16).map { raster[$0, y] } }) == [0x101010, 0x707070])  // half way to the background
        let upright = (0..<8).filter { raster[8 + $0, 4] != 0x101010 }, slanted = (0..<8).filter { raster[16 + $0, 4] != 0x101010 }
        #expect(slanted == upright.map { $0 + 1 })
    }
}
