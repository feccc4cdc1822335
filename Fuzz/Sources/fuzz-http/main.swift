// libFuzzer target `http`: the stub server's HTTP/1.x request parser, fed incrementally.
//
// Input: 2 header bytes, then the bytes a client sends on one connection.
//   byte 0: the seed of the generator that cuts the rest into chunks of 1...64 bytes (now and
//           then up to 512), as reads from a socket would;
//   byte 1: bit 0 picks small limits (512-byte heads, 256-byte bodies) so the 413/431 paths run.
// Never a crash; every request or failure the chunked feeding produces is the one feeding the
// whole input at once produces (only `expectContinue` depends on where the input was cut);
// failures carry a 4xx/5xx status; a request's body respects the limit and its framing.
import FuzzSupport
@testable import Stubs

private func describe(_ event: HTTPRequestParser.Event, limits: HTTPRequestParser.Limits) -> String? {
    switch event {
    case .expectContinue:
        return nil
    case .request(let request):
        let head = request.head
        fuzzCheck(request.body.count <= limits.maxBodyBytes, "a body of \(request.body.count) bytes over the limit")
        switch head.framing {
        case .none: fuzzCheck(request.body.isEmpty, "a body without framing")
        case .contentLength(let length): fuzzCheck(request.body.count == length, "a body of \(request.body.count) bytes for Content-Length \(length)")
        case .chunked: break
        }
        fuzzCheck(!head.method.isEmpty && !head.target.isEmpty, "an empty method or target")
        fuzzCheck(head.minorVersion == 0 || head.minorVersion == 1, "HTTP/1.\(head.minorVersion)")
        let headers = head.headers.fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
        return "\(head.method) \(head.target) 1.\(head.minorVersion) keepAlive=\(head.keepAlive) "
            + "continue=\(head.expectsContinue) \(head.framing)\n\(headers)\nbody=\(request.body)"
    case .failure(let failure):
        fuzzCheck((400..<600).contains(failure.status), "failure status \(failure.status)")
        fuzzCheck(!failure.reason.isEmpty, "a failure without a reason")
        return "failure \(failure.status) \(failure.reason)"
    }
}

/// Feeds `chunks` one after the other, taking every event out after each.
private func parse(_ chunks: [ArraySlice<UInt8>], limits: HTTPRequestParser.Limits) -> [String] {
    var parser = HTTPRequestParser(limits: limits)
    var buffer = InputBuffer()
    var events: [String] = []
    for chunk in chunks {
        buffer.append(Array(chunk))
        while let event = parser.next(in: &buffer) {
            if let text = describe(event, limits: limits) { events.append(text) }
        }
    }
    return events
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = inputBuffer(data, size)
    guard size >= 2 else { return 0 }
    var generator = FuzzGenerator(seed: UInt64(bytes[0]))
    let limits = bytes[1] & 1 == 1
        ? HTTPRequestParser.Limits(maxHeaderBytes: 512, maxBodyBytes: 256)
        : HTTPRequestParser.Limits()
    let stream = Array(bytes[2...])
    var chunks: [ArraySlice<UInt8>] = []
    var offset = 0
    while offset < stream.count {
        let end = min(stream.count, offset + generator.chunkLength())
        chunks.append(stream[offset..<end])
        offset = end
    }
    let whole = parse([stream[...]], limits: limits)
    let chunked = parse(chunks, limits: limits)
    fuzzCheck(whole == chunked, "fed whole: \(whole)\nfed in \(chunks.count) chunks: \(chunked)")
    return 0
}

runFuzzer(fuzzOneInput)
