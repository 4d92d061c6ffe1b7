// Fuzz target: HTTPRequestParser fed the same bytes whole, byte by byte and in random pieces
// must never crash and must give the same requests and the same error every way.

import TileHTTP

/// Small limits so the fuzzer reaches the 414/431/413 edges with short inputs.
private let limits = HTTPParserLimits(maxRequestLineBytes: 96, maxHeaderBytes: 256, maxBodyBytes: 64)

private struct Outcome: Equatable {
    var requests: [HTTPRequest] = []
    var error: HTTPParseError?
}

private func parse(_ input: [UInt8], pieces: [Range<Int>]) -> Outcome {
    var parser = HTTPRequestParser(limits: limits)
    var outcome = Outcome()
    for piece in pieces {
        parser.append(input[piece])
        do {
            while let request = try parser.next() { outcome.requests.append(request) }
            _ = parser.hasPartialRequest
        } catch {
            outcome.error = error
            return outcome
        }
    }
    return outcome
}

/// Cuts `count` bytes into pieces of 1…16 bytes chosen by a xorshift generator seeded with `seed`.
private func randomPieces(_ count: Int, seed: UInt32) -> [Range<Int>] {
    var state = seed | 1
    var pieces: [Range<Int>] = []
    var start = 0
    while start < count {
        state ^= state << 13
        state ^= state >> 17
        state ^= state << 5
        let end = min(count, start + 1 + Int(state % 16))
        pieces.append(start ..< end)
        start = end
    }
    return pieces
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 4 else { return 0 }
    let seed = UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24
    let input = Array(UnsafeBufferPointer(start: data + 4, count: size - 4))
    let whole = parse(input, pieces: input.isEmpty ? [] : [0 ..< input.count])
    let split = parse(input, pieces: randomPieces(input.count, seed: seed))
    let drip = parse(input, pieces: (0 ..< input.count).map { $0 ..< $0 + 1 })
    if whole != split || whole != drip {
        fatalError("parser results differ by split: whole \(whole), split \(split), drip \(drip)")
    }
    for request in whole.requests {
        _ = request.keepAlive
        _ = request.queryItems
    }
    if let error = whole.error { _ = (error.status, error.description) }
    return 0
}
