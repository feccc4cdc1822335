/// The numeric parameters of a control sequence, with `:` sub-parameters kept.
///
/// An omitted parameter reads as 0 ("0 means default" is the dispatcher's business).
/// Values saturate at 65535; at most `capacity` parameters are kept (more are dropped).
///
/// The values are stored inline (one `SIMD32<UInt16>`, no allocation): the parser clears and
/// fills a set for every control sequence, so this is on the hot path.
package struct CSIParameters: Sendable, Hashable, CustomStringConvertible {
    /// Maximum number of parameters (including sub-parameters) kept.
    package static let capacity = 32

    /// The values, inline; lanes at `count` and beyond are always 0, so the synthesized
    /// equality and hashing compare exactly the values held.
    private var storage: SIMD32<UInt16>
    /// Number of values held.
    private var length: UInt8
    /// Bit `i` set: value `i` follows a `:` (is a sub-parameter of the one before).
    package private(set) var subparameterMask: UInt32

    /// No parameters.
    package init() {
        storage = SIMD32()
        length = 0
        subparameterMask = 0
    }

    /// Creates parameters from values (test helper); `subparameters` lists indices that follow a `:`.
    package init(_ values: [Int], subparameters: Set<Int> = []) {
        self.init()
        for (index, value) in values.enumerated() {
            append(UInt16(clamping: value), isSubparameter: subparameters.contains(index))
        }
    }

    /// The values in order.
    package var values: ContiguousArray<UInt16> {
        ContiguousArray((0..<count).map { storage[$0] })
    }

    /// Number of values.
    package var count: Int {
        @inline(__always) get { Int(length) }
    }

    /// True when there are no values.
    package var isEmpty: Bool { length == 0 }

    /// The raw value at `index`, 0 when out of range.
    package subscript(index: Int) -> Int {
        @inline(__always) get { index >= 0 && index < count ? Int(storage[index]) : 0 }
    }

    /// The value at `index`, or `defaultValue` when it is missing or 0.
    @inline(__always)
    package func value(at index: Int, default defaultValue: Int) -> Int {
        let raw = self[index]
        return raw == 0 ? defaultValue : raw
    }

    /// True when value `index` follows a `:`.
    @inline(__always)
    package func isSubparameter(_ index: Int) -> Bool {
        index >= 0 && index < 32 && subparameterMask & (1 << UInt32(index)) != 0
    }

    /// Appends a value (dropped when full).
    @inline(__always)
    package mutating func append(_ value: UInt16, isSubparameter: Bool) {
        let index = Int(length)
        guard index < Self.capacity else { return }
        if isSubparameter { subparameterMask |= 1 << UInt32(index) }
        storage[index] = value
        length += 1
    }

    /// Removes every value.
    @inline(__always)
    package mutating func removeAll() {
        storage = SIMD32()
        length = 0
        subparameterMask = 0
    }

    /// "1;2:3" style text.
    package var description: String {
        var text = ""
        for index in 0..<count {
            if index > 0 { text += isSubparameter(index) ? ":" : ";" }
            text += String(storage[index])
        }
        return text
    }
}
