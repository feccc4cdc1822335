/// The numeric parameters of a control sequence, with `:` sub-parameters kept.
///
/// An omitted parameter reads as 0 ("0 means default" is the dispatcher's business).
/// Values saturate at 65535; at most `capacity` parameters are kept (more are dropped).
public struct CSIParameters: Sendable, Hashable, CustomStringConvertible {
    /// Maximum number of parameters (including sub-parameters) kept.
    public static let capacity = 32

    /// The values in order.
    public private(set) var values: ContiguousArray<UInt16>
    /// Bit `i` set: value `i` follows a `:` (is a sub-parameter of the one before).
    public private(set) var subparameterMask: UInt32

    /// No parameters.
    public init() {
        values = []
        values.reserveCapacity(Self.capacity)
        subparameterMask = 0
    }

    /// Creates parameters from values (test helper); `subparameters` lists indices that follow a `:`.
    public init(_ values: [Int], subparameters: Set<Int> = []) {
        self.init()
        for (index, value) in values.enumerated() {
            append(UInt16(clamping: value), isSubparameter: subparameters.contains(index))
        }
    }

    /// Number of values.
    public var count: Int { values.count }

    /// True when there are no values.
    public var isEmpty: Bool { values.isEmpty }

    /// The raw value at `index`, 0 when out of range.
    public subscript(index: Int) -> Int { index < values.count ? Int(values[index]) : 0 }

    /// The value at `index`, or `defaultValue` when it is missing or 0.
    @inline(__always)
    public func value(at index: Int, default defaultValue: Int) -> Int {
        let raw = self[index]
        return raw == 0 ? defaultValue : raw
    }

    /// True when value `index` follows a `:`.
    public func isSubparameter(_ index: Int) -> Bool {
        index < 32 && subparameterMask & (1 << UInt32(index)) != 0
    }

    /// Appends a value (dropped when full).
    @inline(__always)
    public mutating func append(_ value: UInt16, isSubparameter: Bool) {
        guard values.count < Self.capacity else { return }
        if isSubparameter { subparameterMask |= 1 << UInt32(values.count) }
        values.append(value)
    }

    /// Removes every value, keeping storage.
    @inline(__always)
    public mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
        subparameterMask = 0
    }

    /// "1;2:3" style text.
    public var description: String {
        var text = ""
        for index in values.indices {
            if index > 0 { text += isSubparameter(index) ? ":" : ";" }
            text += String(values[index])
        }
        return text
    }
}
