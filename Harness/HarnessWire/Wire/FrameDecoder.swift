/// An incremental frame decoder: feed it bytes as they arrive, take whole messages out.
///
/// A truncated frame waits for more bytes. An oversized, empty or malformed frame
/// throws a ``WireError``; the stream is then out of step and must be dropped.
///
/// ```swift
/// var decoder = FrameDecoder()
/// decoder.append(chunk)
/// while let message = try decoder.nextMessage() { handle(message) }
/// ```
public struct FrameDecoder: Sendable {
    /// The largest payload accepted, in bytes.
    public let maxFrameSize: Int
    private var buffer: [UInt8] = []
    private var start = 0

    /// Creates a decoder that refuses payloads larger than `maxFrameSize` bytes.
    public init(maxFrameSize: Int = BridgeProtocol.defaultMaxFrameSize) {
        self.maxFrameSize = maxFrameSize
    }

    /// The number of bytes received but not yet returned as messages.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Appends received bytes.
    public mutating func append<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next whole frame's payload, or `nil` when more bytes are needed.
    public mutating func nextPayload() throws(WireError) -> ArraySlice<UInt8>? {
        let available = buffer.count - start
        guard available >= BridgeProtocol.headerSize else { return nil }
        let length =
            Int(buffer[start]) << 24 | Int(buffer[start + 1]) << 16 | Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
        guard length <= maxFrameSize else { throw .frameTooLarge(length: length, limit: maxFrameSize) }
        guard length > 0 else { throw .emptyFrame }
        guard available >= BridgeProtocol.headerSize + length else { return nil }
        let payloadStart = start + BridgeProtocol.headerSize
        start = payloadStart + length
        if start == buffer.count {
            // Everything consumed: hand the storage over instead of copying the payload.
            let whole = buffer
            buffer = []
            let end = start
            start = 0
            return whole[payloadStart..<end]
        }
        return buffer[payloadStart..<start]
    }

    /// Returns the next whole message, or `nil` when more bytes are needed.
    public mutating func nextMessage() throws(WireError) -> BridgeMessage? {
        guard let payload = try nextPayload() else { return nil }
        return try BridgeFrame.decodePayload(payload)
    }
}
