import Testing
@testable import TileHTTP

@Suite struct HTTPRequestTargetTests {
    @Test(arguments: [
        ("/", [String](), String?.none),
        ("/a/b.png", ["a", "b.png"], nil),
        ("//a///b", ["a", "b"], nil),
        ("/a%20b/c?x=1", ["a b", "c"], "x=1"),
        ("/a?", ["a"], ""),
        ("http://example.org/world/1/2/3.png?q", ["world", "1", "2", "3.png"], "q"),
        ("http://example.org", [], nil),
        ("*", [], nil),
        ("/a#frag", ["a"], nil),
    ])
    func parsesTargets(_ target: String, _ segments: [String], _ query: String?) throws {
        let parsed = try HTTPRequestTarget(parsing: target)
        #expect(parsed.pathSegments == segments)
        #expect(parsed.query == query)
    }

    @Test(arguments: [
        "/../etc/passwd", "/world/../../x", "/%2e%2e/x", "/%2E%2e/x", "/./a", "/a/%2e",
        "/a%2fb", "/a%2Fb", "/a%5cb", "/a%00b", "/a%zz", "/a%2", "/%ff%fe", "relative",
    ])
    func refusesTraversalAndBadEncoding(_ target: String) {
        #expect(throws: HTTPParseError.self) { try HTTPRequestTarget(parsing: target) }
    }

    /// A plain target (no percent-encoding) keeps no segments of its own: they are read from it
    /// when asked for, it is offered for a route to read in place, and the request equals the
    /// one made with its segments.
    @Test func aPlainTargetsSegmentsAreReadFromIt() throws {
        let plain = try HTTPRequest(method: .get, target: "/world/1/2/3.png?x=1#f")
        #expect(plain.pathSegments == ["world", "1", "2", "3.png"])
        #expect(plain.query == "x=1")
        #expect(plain.plainTarget == "/world/1/2/3.png?x=1#f")
        let made = HTTPRequest(method: .get, target: "/world/1/2/3.png?x=1#f", pathSegments: ["world", "1", "2", "3.png"],
                               query: "x=1")
        #expect(plain == made)
        #expect(made.plainTarget == nil)
        let encoded = try HTTPRequest(method: .get, target: "/a%20b/c")
        #expect(encoded.plainTarget == nil)
        #expect(encoded.pathSegments == ["a b", "c"])
        #expect(throws: HTTPParseError.self) { try HTTPRequest(method: .get, target: "/a/../b") }
    }

    /// The parser's requests for plain targets read their segments from the target too.
    @Test func aParsedPlainTargetIsReadInPlace() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("GET /world/1/2/3.png?v=2 HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        let request = try #require(try parser.next())
        #expect(request.pathSegments == ["world", "1", "2", "3.png"])
        #expect(request.query == "v=2")
        #expect(request.plainTarget == "/world/1/2/3.png?v=2")
    }

    /// The plain read and the general parser agree on every plain target: segments, query, and
    /// what they refuse.
    @Test(arguments: [
        "/", "/a/b.png", "//a///b", "/a?", "/a#frag", "/world/1/2/3.png?v=2#x", "/1/2/3.png?a=/b/c", "/1/2/3.png#a?b",
        "/a/./b", "/a/../b", "/..", "/a\\b", "/.../x", "/a.b/..c",
    ])
    func thePlainReadAgreesWithTheGeneralParser(_ target: String) throws {
        var bytes = target
        let plain = bytes.withUTF8 { utf8 in Result { () throws(HTTPParseError) in try HTTPRequestTarget.plain(utf8) } }
        let general = Result { () throws(HTTPParseError) in try HTTPRequestTarget(parsingGeneral: target) }
        switch (plain, general) {
        case (.success(let plain?), .success(let general)):
            #expect(HTTPRequestTarget.plainSegments(of: target) == general.pathSegments)
            #expect(plain.query == general.query)
        case (.failure, .failure):
            break
        default:
            Issue.record("\(target): plain \(plain), general \(general)")
        }
    }
}
