import Foundation
import Testing
@testable import HarnessFlows

/// The report's step thumbnails can be read without enlarging them.
@Suite struct RunReportThumbnailTests {
    /// At least 6 CSS pixels per column of an 80-column screen (the SVG's cells keep their
    /// proportions, so the text is about 12 pixels high).
    @Test func aThumbnailIsWideEnoughToReadAnEightyColumnScreen() throws {
        let style = RunReportPage.style
        let rule = try #require(style.firstMatch(of: /\.thumb\{display:block;width:(\d+)px/), "no .thumb rule")
        let width = try #require(Int(rule.1))
        #expect(width >= 6 * 80)
        let column = try #require(style.firstMatch(of: /col\.c-shot\{width:(\d+)px/))
        #expect(try #require(Int(column.1)) >= width, "the timeline's picture column is narrower than the thumbnail")
    }
}
