import Testing
@testable import TileHTTP

/// Header fields: lookups are case-insensitive, and those of the names looked up in every
/// request (which `HTTPHeaders` tells from a bit) agree with a pass over the fields.
@Suite struct HTTPHeadersTests {
    /// What a pass over the fields says of `name`.
    private func scanned(_ headers: HTTPHeaders, _ name: HTTPHeaderName) -> [String] {
        headers.fields.filter { $0.name.canonical == name.canonical }.map(\.value)
    }

    private let names: [HTTPHeaderName] = [.host, .contentLength, .transferEncoding, .connection, .expect, .ifNoneMatch,
                                           .ifModifiedSince, .origin, .acceptEncoding, "User-Agent", "X-Other"]

    private func expectAgreement(_ headers: HTTPHeaders, _ comment: Comment) {
        for name in names {
            let values = scanned(headers, name)
            #expect(headers.values(name) == values, comment)
            #expect(headers[name] == values.first, comment)
            #expect(headers.count(of: name) == values.count, comment)
            #expect(headers.contains(name) == !values.isEmpty, comment)
        }
    }

    @Test func lookupsAgreeWithAPassOverTheFieldsThroughEveryChange() {
        var headers = HTTPHeaders()
        expectAgreement(headers, "empty")
        headers.add("HOST", "a")
        headers.add("If-None-Match", "\"x\"")
        headers.add("user-agent", "curl")
        expectAgreement(headers, "added, in any case")
        #expect(headers[.host] == "a" && headers.contains("if-none-match"))
        headers.add("If-None-Match", "\"y\"")
        headers.add("host", "b")
        expectAgreement(headers, "names twice")
        #expect(headers.count(of: .host) == 2 && headers.count(of: .ifNoneMatch) == 2)
        headers.remove(.ifNoneMatch)
        headers.remove(.host)
        headers.add(.host, "c")
        expectAgreement(headers, "removed, one added again")
        #expect(headers.count(of: .host) == 1)
        #expect(!headers.contains(.ifNoneMatch) && headers[.ifNoneMatch] == nil)
        headers.set(.origin, "https://maps.example")
        headers.set(.origin, "https://other.example")
        headers.remove("User-Agent")
        expectAgreement(headers, "set twice, another removed")
        #expect(headers.values(.origin) == ["https://other.example"])
        let literal: HTTPHeaders = ["Content-Length": "3", "Connection": "close", "X-Other": "1", "content-length": "4"]
        expectAgreement(literal, "a literal")
        #expect(literal.count(of: .contentLength) == 2 && literal.contains(.connection))
    }

    /// `isConditional` is about a 304: If-None-Match or If-Modified-Since, in any case.
    @Test(arguments: [
        ("IF-MODIFIED-SINCE: Tue, 01 Jan 2030 00:00:00 GMT", true),
        ("if-none-match: \"x\"", true),
        ("If-Match: \"x\"", false),
        ("If-Unmodified-Since: Tue, 01 Jan 2030 00:00:00 GMT", false),
    ])
    func aRequestIsConditionalWithIfNoneMatchOrIfModifiedSince(field: String, conditional: Bool) throws {
        var parser = HTTPRequestParser()
        parser.append(Array("GET /a HTTP/1.1\r\nHost: h\r\n\(field)\r\n\r\n".utf8))
        let request = try #require(try parser.next())
        #expect(HTTPConditional.isConditional(request.headers) == conditional)
    }
}
