import Testing
@testable import TileHTTP

@Suite struct HTTPConditionalTests {
    let etag = "\"abc\""

    @Test(arguments: [
        ("\"abc\"", true), ("W/\"abc\"", true), ("\"x\", \"abc\"", true), ("*", true),
        ("\"abcd\"", false), ("\"x\",\"y\"", false), ("abc", false),
    ])
    func ifNoneMatch(_ header: String, _ notModified: Bool) {
        let headers: HTTPHeaders = [.ifNoneMatch: header]
        #expect(HTTPConditional.isNotModified(headers, etag: etag, lastModified: nil) == notModified)
    }

    @Test func ifModifiedSince() {
        let modified = 1_000_000_000
        let at = HTTPDate.format(secondsSince1970: modified)
        let before = HTTPDate.format(secondsSince1970: modified - 1)
        #expect(HTTPConditional.isNotModified([.ifModifiedSince: at], etag: etag, lastModified: modified))
        #expect(!HTTPConditional.isNotModified([.ifModifiedSince: before], etag: etag, lastModified: modified))
        #expect(!HTTPConditional.isNotModified([.ifModifiedSince: "garbage"], etag: etag, lastModified: modified))
        #expect(!HTTPConditional.isNotModified([.ifModifiedSince: at], etag: etag, lastModified: nil))
    }

    @Test func ifNoneMatchWinsOverIfModifiedSince() {
        let modified = 1_000_000_000
        let headers: HTTPHeaders = [.ifNoneMatch: "\"other\"", .ifModifiedSince: HTTPDate.format(secondsSince1970: modified)]
        #expect(!HTTPConditional.isNotModified(headers, etag: etag, lastModified: modified))
    }

    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777),
        ("Sunday, 06-Nov-94 08:49:37 GMT", 784_111_777),
        ("Sun Nov  6 08:49:37 1994", 784_111_777),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0),
    ])
    func parsesHTTPDates(_ text: String, _ seconds: Int) {
        #expect(HTTPDate.parse(text) == seconds)
    }

    @Test func formatsIMFFixdateAndRoundTrips() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        for seconds in stride(from: 0, to: 4_000_000_000, by: 86_399_987) {
            #expect(HTTPDate.parse(HTTPDate.format(secondsSince1970: seconds)) == seconds)
        }
    }

    @Test(arguments: ["", "Sun, 06 Nov 1994 08:49:37", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT"])
    func rejectsBadDates(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
