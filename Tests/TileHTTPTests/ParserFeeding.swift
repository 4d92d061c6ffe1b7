@testable import TileHTTP

/// What a parser makes of an input: the requests it yields, and the error that stops it.
struct ParseOutcome: Equatable {
    var requests: [HTTPRequest]
    var error: HTTPParseError?
}

/// Feeds `input` to a fresh parser (looking heads up in `memo`, if given) in the given pieces,
/// draining requests after each piece.
func parse(
    _ input: [UInt8], pieces: [Range<Int>], limits: HTTPParserLimits = HTTPParserLimits(), memo: HTTPHeadMemo? = nil
) -> ParseOutcome {
    var parser = HTTPRequestParser(limits: limits, memo: memo)
    var requests: [HTTPRequest] = []
    for piece in pieces {
        parser.append(input[piece])
        do {
            while let request = try parser.next() { requests.append(request) }
        } catch {
            return ParseOutcome(requests: requests, error: error)
        }
    }
    return ParseOutcome(requests: requests, error: nil)
}

/// The input whole, byte by byte, and split in two at every point: NIO's drip-feed check.
func feedings(of count: Int) -> [[Range<Int>]] {
    var result: [[Range<Int>]] = [[0 ..< count], (0 ..< count).map { $0 ..< $0 + 1 }]
    // Every cut for short inputs; for long ones every cut near the ends and a spread between.
    let step = count <= 1024 ? 1 : 97
    for cut in stride(from: 1, to: max(count, 1), by: 1) where step == 1 || cut < 64 || count - cut < 64 || cut % step == 0 {
        result.append([0 ..< cut, cut ..< count])
    }
    return result
}

/// Parses `text` every way and returns the single outcome (all feedings must agree).
func parseEveryWay(_ text: String, limits: HTTPParserLimits = HTTPParserLimits()) -> (ParseOutcome, consistent: Bool) {
    let input = Array(text.utf8)
    let outcomes = feedings(of: input.count).map { parse(input, pieces: $0, limits: limits) }
    return (outcomes[0], outcomes.allSatisfy { $0 == outcomes[0] })
}
