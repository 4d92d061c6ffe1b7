// Parser rules added with the connection state machine: limits on what a client may send
// before and inside a header section, and RFC 9112's request-target and version rules.

import Testing
@testable import TileHTTP

@Suite struct HTTPParserHardeningTests {
    /// Empty lines before the request line are limited like a header section, however split.
    @Test func endlessEmptyLinesGive431HoweverSplit() {
        let limits = HTTPParserLimits(maxHeaderBytes: 1024)
        let (outcome, consistent) = parseEveryWay(String(repeating: "\r\n", count: 600), limits: limits)
        #expect(consistent)
        #expect(outcome.error == .headersTooLarge(limit: 1024))
    }

    @Test func emptyLinesWithinTheLimitAreSkipped() throws {
        let limits = HTTPParserLimits(maxHeaderBytes: 1024)
        let (outcome, consistent) = parseEveryWay(String(repeating: "\r\n", count: 100) + "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
                                                  limits: limits)
        #expect(consistent)
        #expect(outcome.requests.count == 1)
    }

    @Test func tooManyHeaderFieldsGive431() {
        let fields = (0 ..< 12).map { "X-\($0): v\r\n" }.joined()
        let limits = HTTPParserLimits(maxHeaderFields: 10)
        let (outcome, _) = parseEveryWay("GET / HTTP/1.1\r\nHost: a\r\n" + fields + "\r\n", limits: limits)
        #expect(outcome.error == .tooManyHeaderFields(limit: 10))
        #expect(outcome.error?.status == .requestHeaderFieldsTooLarge)
        let (fits, _) = parseEveryWay("GET / HTTP/1.1\r\nHost: a\r\n" + (0 ..< 9).map { "X-\($0): v\r\n" }.joined() + "\r\n",
                                      limits: limits)
        #expect(fits.error == nil)
    }

    /// RFC 9110 §6.2: a later HTTP/1.x is answered as HTTP/1.1; another major version is 505.
    @Test(arguments: [("HTTP/1.2", true), ("HTTP/1.9", true), ("HTTP/2.0", false), ("HTTP/0.9", false)])
    func laterMinorVersionsAreServedAsHTTP11(version: String, served: Bool) {
        let (outcome, _) = parseEveryWay("GET / \(version)\r\nHost: a\r\n\r\n")
        if served {
            #expect(outcome.requests.first?.version == .http1_1)
        } else {
            #expect(outcome.error == .unsupportedVersion)
        }
    }

    /// RFC 9112 §3.2.4: "*" is the target of a server-wide OPTIONS only.
    @Test func asteriskIsAcceptedOnlyWithOptions() {
        #expect(parseEveryWay("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n").0.requests.count == 1)
        let (get, _) = parseEveryWay("GET * HTTP/1.1\r\nHost: a\r\n\r\n")
        guard case .malformedTarget = get.error else {
            Issue.record("GET * was accepted")
            return
        }
    }

    /// RFC 9112 §3.2.2: an absolute-form target's authority replaces Host.
    @Test func absoluteFormAuthorityWinsOverHost() throws {
        let (outcome, _) = parseEveryWay("GET http://tiles.example.org:8080/1/2/3.png?a=b HTTP/1.1\r\nHost: evil\r\n\r\n")
        let request = try #require(outcome.requests.first)
        #expect(request.headers.values(.host) == ["tiles.example.org:8080"])
        #expect(request.pathSegments == ["1", "2", "3.png"])
        #expect(request.query == "a=b")
        let (userinfo, _) = parseEveryWay("GET http://user@h.example/ HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(userinfo.requests.first?.headers[.host] == "h.example")
    }

    /// A client that expects 100-continue gets its request handed over before the body; the
    /// parser then yields nothing more (the body is not a request).
    @Test func expectContinueHandsTheRequestOverWithoutItsBody() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n".utf8))
        let request = try #require(try parser.next())
        #expect(request.body.isEmpty)
        #expect(request.announcedBodyLength == 10)
        #expect(parser.bodyWithheld)
        parser.append(Array("GET /y HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(try parser.next() == nil)
    }

    @Test func theDefaultBodyLimitIsSmall() {
        #expect(HTTPParserLimits.defaultBodyBytes <= 64 << 10)
        let (outcome, _) = parseEveryWay("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n")
        #expect(outcome.error == .bodyTooLarge(limit: HTTPParserLimits.defaultBodyBytes))
    }
}
