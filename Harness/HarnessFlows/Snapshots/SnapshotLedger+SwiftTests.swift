import HarnessCore
import HarnessSteps

extension SnapshotLedger.Owner {
    /// The name `swift test list` gives the test of a Swift Testing event stream id: the id
    /// without its source location (`Module.Suite/test()/File.swift:12:6` is
    /// `Module.Suite/test()`); any other label is returned as it is.
    package static func swiftTestListName(ofStreamID id: String) -> String {
        guard let slash = id.lastIndex(of: "/") else { return id }
        let tail = id[id.index(after: slash)...].split(separator: ":")
        guard tail.count >= 3, tail.suffix(2).allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else { return id }
        return String(id[..<slash])
    }
}
