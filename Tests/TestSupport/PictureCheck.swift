import Foundation
import HarnessCore
import TerminalEmulator

/// `Scripts/picture-check.py`: decodes the harness's PNG and GIF files with Python's standard
/// library alone and compares their pixels with GNU Unifont's glyphs of a screen's cells.
public enum PictureCheck {
    /// Runs the script with `arguments` (`png FILE`, `gif FILE`, `pixels FILE`, `cells FILE SCREEN.json`).
    public static func run(_ arguments: [String]) async throws -> ProgramOutput {
        let script = DocumentedExamples.packageRoot(fromTestFile: #filePath).appendingPathComponent("Scripts/picture-check.py").path
        return try await runProgram("/usr/bin/env", ["python3", script] + arguments)
    }

    /// The summary `png FILE` or `gif FILE` prints (`width`, `height`, `frames`, `delays`, ...).
    public static func summary(_ format: String, of path: String) async throws -> [String: Any] {
        let output = try await run([format, path])
        guard output.status == 0, let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any] else {
            throw CheckFailure(message: "picture-check.py \(format) \(path) exited \(output.status): \(output.stderr)")
        }
        return object
    }

    /// Compares the picture at `path` (a PNG, or a GIF's last frame) with `snapshot`'s cells
    /// drawn in `palette`; nil when every pixel matches, else the script's message.
    public static func differences(of path: String, from snapshot: ScreenSnapshot, palette: TerminalPalette = .xterm) async throws -> String? {
        let screen = path + ".cells.json"
        try Data(cellsJSON(snapshot, palette: palette).utf8).write(to: URL(fileURLWithPath: screen))
        defer { try? FileManager.default.removeItem(atPath: screen) }
        let output = try await run(["cells", path, screen])
        return output.status == 0 ? nil : output.stderr + output.stdout
    }

    /// Throws the script's message unless the picture at `path` (a PNG, or a GIF's last frame)
    /// shows `snapshot` drawn in `palette`, every pixel of every cell.
    public static func requireSame(_ path: String, as snapshot: ScreenSnapshot, palette: TerminalPalette = .xterm) async throws {
        if let differences = try await differences(of: path, from: snapshot, palette: palette) {
            throw CheckFailure(message: differences)
        }
    }

    /// The script's description of `snapshot`: each cell's character, width, colors (inverse,
    /// a visible cursor and dim applied: dim text half way to its background) and flags (bold,
    /// italic, underline, strikethrough, hidden). Written here from the palette's
    /// table, apart from the rasterizer's own resolution, so a wrong color in either shows.
    public static func cellsJSON(_ snapshot: ScreenSnapshot, palette: TerminalPalette = .xterm) -> String {
        let grid = snapshot.cells
        var cursor = Set<[Int]>()
        if snapshot.cursor.visible, snapshot.rows > 0, snapshot.cols > 0 {
            let row = min(max(0, snapshot.cursor.row), snapshot.rows - 1)
            var col = min(max(0, snapshot.cursor.col), snapshot.cols - 1)
            if grid[row][col].width == 0, col > 0 { col -= 1 }
            for spanned in col..<min(snapshot.cols, col + max(1, grid[row][col].width)) { cursor.insert([row, spanned]) }
        }
        var rows: [[[String: Any]]] = []
        for (row, cells) in grid.enumerated() {
            rows.append(cells.enumerated().map { col, cell in
                let attributes = cell.attributes
                var fg = palette.hex(attributes.foreground) ?? palette.defaultForeground
                var bg = palette.hex(attributes.background) ?? palette.defaultBackground
                if attributes.inverse { swap(&fg, &bg) }
                if cursor.contains([row, col]) { swap(&fg, &bg) }
                if attributes.dim { fg = halfway(fg, bg) }
                return ["text": cell.character, "width": cell.width, "fg": fg, "bg": bg, "bold": attributes.bold,
                        "italic": attributes.italic, "underline": attributes.underline,
                        "strikethrough": attributes.strikethrough, "hidden": attributes.hidden]
            })
        }
        let object: [String: Any] = ["cellWidth": 8, "cellHeight": 16, "rows": rows]
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// `#rrggbb` half way between two colors, each channel rounded down.
    static func halfway(_ a: String, _ b: String) -> String {
        let x = UInt32(a.dropFirst(), radix: 16) ?? 0, y = UInt32(b.dropFirst(), radix: 16) ?? 0
        let channels = [16, 8, 0].map { shift in UInt8(((x >> UInt32(shift) & 0xFF) + (y >> UInt32(shift) & 0xFF)) / 2) }
        return TerminalColor.hex(channels[0], channels[1], channels[2])
    }

    /// A check that could not run.
    public struct CheckFailure: Error, CustomStringConvertible {
        /// What went wrong.
        public var message: String
        /// The message.
        public var description: String { message }
    }
}
