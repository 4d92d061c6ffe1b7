import Testing
@testable import TileHTTP

/// A loop's memo of header sections: heads that differ in their request line alone share the
/// parse of their fields, which is the parse those bytes would give.
@Suite struct HTTPFieldSectionMemoTests {
    private let section = "Host: tiles.example\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) Leaflet\r\n"
        + "Accept: image/avif,image/webp,*/*\r\nReferer: https://maps.example/view\r\n\r\n"

    private func parse(_ text: String, with parser: inout HTTPRequestParser) throws -> [HTTPRequest] {
        parser.append(Array(text.utf8))
        var requests: [HTTPRequest] = []
        while let request = try parser.next() { requests.append(request) }
        return requests
    }

    /// A loop's memo and a parser that uses it.
    private func memoized(_ limits: HTTPParserLimits = HTTPParserLimits()) -> (HTTPHeadMemo, HTTPRequestParser) {
        let memo = HTTPHeadMemo()
        return (memo, HTTPRequestParser(limits: limits, memo: memo))
    }

    /// `count` heads for tiles from column `from` on, with header section `section`.
    private func tiles(_ count: Int, from: Int = 0, section: String) -> String {
        (from ..< from + count).map { "GET /5/\($0)/\($0 + 1).png HTTP/1.1\r\n" + section }.joined()
    }

    @Test func headsThatDifferInTheirRequestLineShareTheParseOfTheirFields() throws {
        var (memo, parser) = memoized()
        var plain = HTTPRequestParser()
        let text = tiles(5, section: section)
        let remembered = try parse(text, with: &parser)
        let parsed = try parse(text, with: &plain)
        #expect(remembered == parsed, "the same requests as a parse without a memo")
        #expect(remembered.map(\.pathSegments[1]) == ["0", "1", "2", "3", "4"])
        #expect(remembered[4].headers["user-agent"] == "Mozilla/5.0 (X11; Linux x86_64) Leaflet")
        // Seen once: noted; twice: remembered; the three after: found.
        #expect(memo.fieldSections.found == 3)
    }

    @Test func aSectionSeenOnceIsOnlyNotedAndAnotherSectionIsParsed() throws {
        var (memo, parser) = memoized()
        _ = try parse(tiles(1, section: section), with: &parser)
        #expect(memo.fieldSections.found == 0)
        let other = section.replacingOccurrences(of: "tiles.example", with: "tiles.exampla")
        // New heads all (the head memo knows none of them).
        let mixed = try parse(tiles(2, from: 1, section: section) + tiles(1, from: 3, section: other)
                              + tiles(1, from: 4, section: section), with: &parser)
        #expect(mixed.map { $0.headers[.host] } == ["tiles.example", "tiles.example", "tiles.exampla", "tiles.example"])
        #expect(memo.fieldSections.found == 2)
    }

    /// What `fields(of:hash:…)` gives `text` under `hash`, and whether it parsed to give it.
    private func fields(_ memo: HTTPFieldSectionMemo, _ text: String, hash: Int) throws -> (HTTPHeaders, parsed: Bool) {
        var parsed = false
        let fields = try Array(text.utf8).withUnsafeBytes { bytes in
            try memo.fields(of: bytes, hash: hash, maxFields: 100) { () throws(HTTPParseError) in
                parsed = true
                var request = HTTPRequestParser()
                request.append(Array(("GET / HTTP/1.1\r\n" + text).utf8))
                guard let parsed = try request.next() else { throw .malformedHeader }
                return parsed.headers
            }
        }
        return (fields, parsed)
    }

    @Test func aSectionOfTheSameHashAndLengthOneByteApartIsParsedNotTakenForTheRememberedOne() throws {
        let memo = HTTPFieldSectionMemo()
        let other = section.replacingOccurrences(of: "tiles.example", with: "tiles.exampla")
        #expect(other.utf8.count == section.utf8.count)
        #expect(try (0 ..< 3).map { _ in try fields(memo, section, hash: 7).parsed } == [true, true, false])
        let (otherFields, parsed) = try fields(memo, other, hash: 7)
        #expect(parsed && otherFields[.host] == "tiles.exampla")
        #expect(try fields(memo, section, hash: 7).0[.host] == "tiles.example")
    }

    @Test func twoSectionsThatTakeTurnsInOnePairAreBothRemembered() throws {
        let memo = HTTPFieldSectionMemo()
        let other = "Host: other.example\r\n\r\n"
        let (hash, otherHash) = (2, 2 + HTTPFieldSectionMemo.slotCount)
        #expect(HTTPFieldSectionMemo.pair(hash) == HTTPFieldSectionMemo.pair(otherHash))
        var parses: [Bool] = []
        for _ in 0 ..< 4 {
            parses.append(try fields(memo, section, hash: hash).parsed)
            parses.append(try fields(memo, other, hash: otherHash).parsed)
        }
        #expect(parses == [true, true, true, true, false, false, false, false])
    }

    @Test func aRememberedSectionIsParsedAgainUnderAnotherFieldLimit() throws {
        var (memo, roomy) = memoized()
        _ = try parse(tiles(3, section: section), with: &roomy)
        #expect(memo.fieldSections.found == 1)
        var limits = HTTPParserLimits()
        limits.maxHeaderFields = 2
        var strict = HTTPRequestParser(limits: limits, memo: memo)
        #expect(throws: HTTPParseError.tooManyHeaderFields(limit: 2)) { try parse(tiles(1, section: section), with: &strict) }
    }

    @Test func aSectionThatDoesNotParseIsRefusedEachTime() throws {
        let memo = HTTPHeadMemo()
        let broken = "Host: a\r\nBad Name: x\r\n\r\n"
        for _ in 0 ..< 3 {
            var parser = HTTPRequestParser(limits: HTTPParserLimits(), memo: memo)
            #expect(throws: HTTPParseError.malformedHeader) { try parse(tiles(1, section: broken), with: &parser) }
        }
        #expect(memo.fieldSections.found == 0)
    }

    @Test func anHTTP11HeadWithoutHostIsRefusedEvenWhenItsSectionIsRemembered() throws {
        var (memo, parser) = memoized()
        let noHost = "Accept: */*\r\n\r\n"
        let old = (0 ..< 3).map { "GET /1/0/\($0).png HTTP/1.0\r\n" + noHost }.joined()
        #expect(try parse(old, with: &parser).count == 3)
        #expect(memo.fieldSections.found == 1)
        #expect(throws: HTTPParseError.missingOrDuplicateHost) {
            try parse("GET /1/0/0.png HTTP/1.1\r\n" + noHost, with: &parser)
        }
    }
}
