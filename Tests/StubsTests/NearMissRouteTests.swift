import Foundation
import Testing
@testable import Stubs

/// A near miss names a stub by its route when its id is a generated UUID, which tells a
/// reader nothing; an id someone chose is kept.
@Suite struct NearMissRouteTests {
    @Test func aGeneratedIdIsShownAsTheRoute() {
        let generated = StubID.unique()
        let report = NearMissReport(
            request: RecordedRequest(method: "GET", target: "/todo"),
            stubs: [(generated, .get("/todos"), false), (StubID("named"), .get("/todoz"), false)])
        #expect(report.description.contains("stub GET /todos"), "\(report.description)")
        #expect(!report.description.contains(generated.rawValue), "\(report.description)")
        #expect(report.description.contains("stub named: GET /todoz"), "\(report.description)")
    }
}
