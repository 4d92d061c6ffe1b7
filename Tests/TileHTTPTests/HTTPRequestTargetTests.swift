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
}
