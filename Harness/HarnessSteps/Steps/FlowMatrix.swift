import HarnessCore
import TerminalEmulator

/// The configurations a flow runs in, each axis a list of values: terminal sizes, themes
/// (``TerminalTheme``) and colour on or off. A flow's `matrix` lines and `harness run --matrix`
/// make one; the flow then runs once per combination (``cases``), each case named by its
/// values (`40x12,light,nocolor`).
///
/// ```swift
/// let matrix = try FlowMatrix(parsing: ["size=80x24,40x12", "theme=dark,light"])
/// matrix.cases.map(\.name)   // ["80x24,dark", "80x24,light", "40x12,dark", "40x12,light"]
/// ```
public struct FlowMatrix: Sendable, Hashable {
    /// The axes a matrix may have, in the order case names list them.
    public enum Axis: String, Sendable, Hashable, CaseIterable {
        /// `size=COLSxROWS,...`: the terminal size at launch.
        case size
        /// `theme=dark,light`: the terminal's theme.
        case theme
        /// `color=on,off`: `off` sets `NO_COLOR=1`.
        case color
    }

    /// The sizes, nil when the matrix has no size axis.
    public var sizes: [TerminalSize]?
    /// The themes, nil when the matrix has no theme axis.
    public var themes: [TerminalTheme]?
    /// Colour on (`true`) or off, nil when the matrix has no color axis.
    public var colors: [Bool]?

    /// An empty matrix: one case, the flow as written.
    public init() {}

    /// A matrix from `AXIS=V1,V2,...` assignments; a later assignment of an axis replaces an
    /// earlier one.
    /// - Throws: ``FlowMatrixError`` naming the assignment and what was expected.
    public init(parsing assignments: [String]) throws(FlowMatrixError) {
        for assignment in assignments { try set(assignment) }
    }

    /// Sets one axis from `AXIS=V1,V2,...`.
    public mutating func set(_ assignment: String) throws(FlowMatrixError) {
        let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let axis = Axis(rawValue: String(parts[0])) else {
            throw FlowMatrixError(assignment: assignment, expected: "AXIS=V1,V2,... with AXIS size, theme or color")
        }
        let values = parts[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !values.contains(where: \.isEmpty) else {
            throw FlowMatrixError(assignment: assignment, expected: "a comma-separated list of values")
        }
        switch axis {
        case .size:
            sizes = try values.map { value throws(FlowMatrixError) in
                guard let size = TerminalSize(parsing: value) else {
                    throw FlowMatrixError(assignment: assignment, expected: "sizes COLSxROWS, e.g. size=80x24,40x12")
                }
                return size
            }
        case .theme:
            themes = try values.map { value throws(FlowMatrixError) in
                guard let theme = TerminalTheme(rawValue: value) else {
                    throw FlowMatrixError(assignment: assignment, expected: "themes dark or light")
                }
                return theme
            }
        case .color:
            colors = try values.map { value throws(FlowMatrixError) in
                guard value == "on" || value == "off" else { throw FlowMatrixError(assignment: assignment, expected: "on or off") }
                return value == "on"
            }
        }
    }

    /// Whether no axis is set (the flow runs once, as written).
    public var isEmpty: Bool { sizes == nil && themes == nil && colors == nil }

    /// This matrix with `other`'s axes over it (the command line's over a flow's own).
    public func merging(_ other: FlowMatrix) -> FlowMatrix {
        var merged = self
        merged.sizes = other.sizes ?? sizes
        merged.themes = other.themes ?? themes
        merged.colors = other.colors ?? colors
        return merged
    }

    /// Every combination, in a stable order (size, then theme, then colour); empty when the
    /// matrix is.
    public var cases: [FlowMatrixCase] {
        guard !isEmpty else { return [] }
        let sizes: [TerminalSize?] = self.sizes ?? [nil]
        let themes: [TerminalTheme?] = self.themes ?? [nil]
        let colors: [Bool?] = self.colors ?? [nil]
        return sizes.flatMap { size in
            themes.flatMap { theme in colors.map { FlowMatrixCase(size: size, theme: theme, color: $0) } }
        }
    }

    /// The matrix as assignments (`size=80x24,40x12 theme=dark,light`), as a `matrix` line writes it.
    public var assignments: [String] {
        var out: [String] = []
        if let sizes { out.append("size=" + sizes.map(\.description).joined(separator: ",")) }
        if let themes { out.append("theme=" + themes.map(\.rawValue).joined(separator: ",")) }
        if let colors { out.append("color=" + colors.map { $0 ? "on" : "off" }.joined(separator: ",")) }
        return out
    }
}

/// One combination of a ``FlowMatrix``: the values it sets (an axis the matrix lacks stays nil,
/// as the flow writes it).
public struct FlowMatrixCase: Sendable, Hashable, CustomStringConvertible {
    /// The terminal size at launch.
    public var size: TerminalSize?
    /// The terminal's theme.
    public var theme: TerminalTheme?
    /// Colour on, or off (`NO_COLOR=1`).
    public var color: Bool?

    /// Creates a case.
    public init(size: TerminalSize? = nil, theme: TerminalTheme? = nil, color: Bool? = nil) {
        self.size = size
        self.theme = theme
        self.color = color
    }

    /// The values, comma-separated: `40x12,light,nocolor`.
    public var name: String {
        var parts: [String] = []
        if let size { parts.append(size.description) }
        if let theme { parts.append(theme.rawValue) }
        if let color { parts.append(color ? "color" : "nocolor") }
        return parts.joined(separator: ",")
    }

    /// `NAME[40x12,light,nocolor]`: a flow's or result's name in this case.
    public func naming(_ name: String) -> String { "\(name)[\(self.name)]" }

    /// `NAME-40x12-light-nocolor`: a snapshot's name in this case, as ``SnapshotMatrix`` names
    /// Swift cases (file names without brackets or commas).
    public func snapshotName(_ name: String) -> String {
        ([name] + self.name.split(separator: ",").map(String.init)).joined(separator: "-")
    }

    /// ``name``.
    public var description: String { name }

    /// `launch` in this case: its size, theme, and `NO_COLOR` set or removed.
    public func applied(to launch: AppLaunch) -> AppLaunch {
        var launch = launch
        if let size { launch.size = size }
        if let theme { launch.theme = theme }
        if let color { launch.allowColor(color) }
        return launch
    }
}

/// A matrix assignment that could not be read.
public struct FlowMatrixError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The assignment as written.
    public var assignment: String
    /// What was expected instead.
    public var expected: String

    /// `matrix "size=8x": expected sizes COLSxROWS, e.g. size=80x24,40x12`.
    public var description: String { "matrix \(assignment.debugDescription): expected \(expected)" }
}
