// libFuzzer target `frame`: the bridge's frame decoder (length header, JSON envelope), chunked.
//
// Input: 2 header bytes, then the bytes that arrive on the socket.
//   byte 0: the seed of the generator that cuts the rest into chunks of 1...64 bytes (now and
//           then up to 512);
//   byte 1: bit 0 picks a 256-byte frame limit, so oversized frames are refused.
// Never a crash; feeding in chunks gives the messages (and the error that ends the stream) that
// feeding the whole input at once gives; every decoded message encodes again into a frame that
// decodes to the same message.
import FuzzSupport
@testable import HarnessWire

/// Messages until the stream ends or breaks; the error, if any, last.
private func decode(_ chunks: [ArraySlice<UInt8>], maxFrameSize: Int) -> [String] {
    var decoder = FrameDecoder(maxFrameSize: maxFrameSize)
    var results: [String] = []
    for chunk in chunks {
        decoder.append(chunk)
        do {
            while let message = try decoder.nextMessage() {
                results.append("\(message)")
                roundTrip(message)
            }
        } catch {
            results.append("error: \(error)")
            return results
        }
        fuzzCheck(decoder.bufferedByteCount >= 0, "negative buffered count")
    }
    return results
}

private func roundTrip(_ message: BridgeMessage) {
    let frame: [UInt8]
    do {
        frame = try BridgeFrame.encode(message)
    } catch {
        fuzzCheck(false, "\(message) decoded but does not encode: \(error)")
        return
    }
    var decoder = FrameDecoder()
    decoder.append(frame)
    do {
        let again = try decoder.nextMessage()
        fuzzCheck(again == message, "\(message) encodes into a frame that decodes to \(again.map { "\($0)" } ?? "nothing")")
        fuzzCheck(decoder.bufferedByteCount == 0, "bytes left after decoding a frame just encoded")
    } catch {
        fuzzCheck(false, "\(message) encodes into a frame that does not decode: \(error)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = inputBuffer(data, size)
    guard size >= 2 else { return 0 }
    var generator = FuzzGenerator(seed: UInt64(bytes[0]))
    let maxFrameSize = bytes[1] & 1 == 1 ? 256 : BridgeProtocol.defaultMaxFrameSize
    let stream = Array(bytes[2...])
    var chunks: [ArraySlice<UInt8>] = []
    var offset = 0
    while offset < stream.count {
        let end = min(stream.count, offset + generator.chunkLength())
        chunks.append(stream[offset..<end])
        offset = end
    }
    let whole = decode([stream[...]], maxFrameSize: maxFrameSize)
    let chunked = decode(chunks, maxFrameSize: maxFrameSize)
    fuzzCheck(whole == chunked, "fed whole: \(whole)\nfed in \(chunks.count) chunks: \(chunked)")
    return 0
}

runFuzzer(fuzzOneInput)
