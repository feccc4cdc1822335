import Foundation
import TerminalEmulator

/// What a styled or area-limited screen check looks for: text or a regex on one row, inside an
/// area (optional), with a style (optional). Shared by the waits, `verifyStyle` and the flows,
/// so they agree on what matches and explain a miss the same way.
package struct StyledTextQuery: Sendable {
    /// The text or regex looked for.
    package enum Target: Sendable {
        case text(String)
        case regex(CompiledRegex, pattern: String)

        /// Text a wait looks for on one row.
        /// - Throws: `TerminalSessionError.invalidConfiguration` for empty text or text with a line break.
        package static func oneRowText(_ text: String) throws(TerminalSessionError) -> Target {
            guard !text.isEmpty, !text.contains("\n") else {
                throw .invalidConfiguration(
                    "a wait with a style or an area looks for text on one row; \(text.debugDescription) is empty or has a line break")
            }
            return .text(text)
        }

        /// `pattern` compiled with `^` and `$` at line breaks.
        /// - Throws: `TerminalSessionError.invalidRegex` when it does not compile.
        package static func regex(compiling pattern: String) throws -> Target {
            .regex(try CompiledRegex(lines: pattern), pattern: pattern)
        }

        /// The same target, a regex matching until `timeout` from now (``CompiledRegex/within(_:)``).
        package func within(_ timeout: Duration?) -> Target {
            guard case .regex(let regex, let pattern) = self else { return self }
            return .regex(regex.within(timeout), pattern: pattern)
        }
    }

    /// What a screen shows of the query.
    package enum Verdict: Sendable {
        /// The first occurrence inside the area that has the style.
        case matched(ScreenMatch)
        /// Occurrences inside the area, none with the style.
        case wrongStyle([ScreenMatch])
        /// None inside the area, but these elsewhere on the screen.
        case outsideArea([ScreenMatch])
        /// The area's anchors are not on the screen.
        case noArea
        /// Not on the screen at all.
        case missing
    }

    package var target: Target
    package let area: ScreenArea?
    package let style: TextStyle?

    package init(_ target: Target, area: ScreenArea?, style: TextStyle?) {
        self.target = target
        self.area = area
        self.style = style
    }

    /// `text "Oops"` / `regex /\d+/`.
    package var targetDescription: String {
        switch target {
        case .text(let text): "text \(text.debugDescription)"
        case .regex(_, let pattern): "regex /\(pattern)/"
        }
    }

    /// `text "Oops" in rows 2-10 styled bold fg=red`: what a wait waits for.
    package var description: String {
        var text = targetDescription
        if let area { text += " in \(area)" }
        if let style { text += " styled \(style)" }
        return text
    }

    /// The occurrences on `screen`, in `area` when given (nil: the area is not on the screen).
    package func occurrences(on screen: ScreenSnapshot, in area: ScreenArea?) -> [ScreenMatch]? {
        if let area, area.region(on: screen) == nil { return nil }
        switch target {
        case .text(let text):
            return screen.locate(text, in: area)
        case .regex(let regex, _):
            return screen.locate(in: area) { line in
                regex.allMatches(in: line).compactMap { Range($0.range, in: line) }
            }
        }
    }

    /// What `screen` shows of the query.
    package func verdict(on screen: ScreenSnapshot) -> Verdict {
        guard let inside = occurrences(on: screen, in: area) else {
            let elsewhere = occurrences(on: screen, in: nil) ?? []
            return elsewhere.isEmpty ? .missing : .noArea
        }
        if let found = inside.first(where: { style?.matches($0) ?? true }) { return .matched(found) }
        if !inside.isEmpty { return .wrongStyle(inside) }
        let elsewhere = occurrences(on: screen, in: nil) ?? []
        return elsewhere.isEmpty ? .missing : .outsideArea(elsewhere)
    }

    /// Why `verdict` is not a match, in a sentence or a few lines; nil for a match. With the
    /// `screen` the verdict was made on, an area partly or wholly off it is named as such.
    package func explanation(of verdict: Verdict, on screen: ScreenSnapshot? = nil) -> String? {
        guard let explanation = explanation(of: verdict) else { return nil }
        guard let screen, let outside = area?.outsidePart(on: screen) else { return explanation }
        let lines = explanation.split(separator: "\n", maxSplits: 1).map(String.init)
        return ([lines[0] + " (" + outside + ")"] + lines.dropFirst()).joined(separator: "\n")
    }

    /// ``explanation(of:on:)`` without the area's note.
    private func explanation(of verdict: Verdict) -> String? {
        switch verdict {
        case .matched:
            return nil
        case .missing:
            return "the screen does not show the \(targetDescription)"
        case .noArea:
            return "the screen has no \(area.map(String.init(describing:)) ?? "area")"
        case .outsideArea(let elsewhere):
            let places = elsewhere.prefix(3).map { "\($0.text.debugDescription) at \($0.position)" }.joined(separator: ", ")
            return "the \(targetDescription) is only outside \(area.map(String.init(describing:)) ?? "the area"): \(places)"
        case .wrongStyle(let found):
            var lines = ["the screen shows it, but not styled \(style.map(String.init(describing:)) ?? "")"]
            for match in found.prefix(3) {
                lines.append("  " + Self.styleMismatch(of: match, against: style ?? TextStyle()))
            }
            if found.count > 3 { lines.append("  (and \(found.count - 3) more)") }
            return lines.joined(separator: "\n")
        }
    }

    /// `"Oops" at row 11, col 38 has style fg=red; its cell "O" at col 38 differs: bold: expected on, found off`.
    package static func styleMismatch(of match: ScreenMatch, against style: TextStyle) -> String {
        var line = "\(match.text.debugDescription) at \(match.position) has style "
            + (match.uniformStyle.map { ScreenStyleLayer.describe($0) } ?? "mixed")
        if let (index, cell, differences) = style.firstDifference(in: match) {
            line += "; its cell \(cell.character.debugDescription) at col \(match.position.col + index) differs: "
                + differences.joined(separator: ", ")
        }
        return line
    }
}

// MARK: - Checking a screen

/// Checks that `screen` shows `text` (on one row) with `style` in every cell of at least one
/// occurrence, inside `area` when given; returns the failure message, or nil when it does.
///
/// The message names the text, where it was found, the expected style, the actual style and
/// first differing cell of each occurrence, then shows the framed screen:
///
/// ```
/// "Oops" is not styled bold fg=red: the screen shows it, but not styled bold fg=red
///   "Oops" at row 11, col 38 has style fg=red; its cell "O" at col 38 differs: bold: expected on, found off
/// ┌────…
/// ```
/// `assertStyle` (module Harness) reports it through the running test framework.
public func verifyStyle(of text: String, on screen: ScreenSnapshot, in area: ScreenArea? = nil, style: TextStyle) -> String? {
    verify(StyledTextQuery(.text(text), area: area, style: style), subject: text.debugDescription, on: screen)
}

/// The same as ``verifyStyle(of:on:in:style:)`` for every match of a regex (an
/// `NSRegularExpression` pattern, matched row by row).
/// - Throws: `TerminalSessionError.invalidRegex` when the pattern does not compile.
public func verifyStyle(ofRegex pattern: String, on screen: ScreenSnapshot, in area: ScreenArea? = nil, style: TextStyle) throws -> String? {
    let query = StyledTextQuery(try .regex(compiling: pattern), area: area, style: style)
    return verify(query, subject: "/\(pattern)/", on: screen)
}

private func verify(_ query: StyledTextQuery, subject: String, on screen: ScreenSnapshot) -> String? {
    guard let explanation = query.explanation(of: query.verdict(on: screen), on: screen) else { return nil }
    let place = query.area.map { " in \($0)" } ?? ""
    return "\(subject)\(place) is not styled \(query.style.map(String.init(describing:)) ?? "any"): \(explanation)\n\(screen.framed())"
}
