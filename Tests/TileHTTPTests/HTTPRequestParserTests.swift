import Testing
@testable import TileHTTP

@Suite struct HTTPRequestParserTests {
    @Test(arguments: [
        "GET /1/2/3.png HTTP/1.1\r\nHost: a\r\n\r\n",
        "GET /world/1/2/3@2x.png?floor=2 HTTP/1.1\r\nHost: a\r\nUser-Agent: x\r\nAccept: */*\r\n\r\n",
        "HEAD / HTTP/1.0\r\n\r\n",
        "GET / HTTP/1.1\nHost: a\n\n",
        "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
        "POST /admin/reload HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
        "GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    ])
    func sameResultHoweverSplit(_ text: String) {
        let (outcome, consistent) = parseEveryWay(text)
        #expect(consistent)
        #expect(outcome.error == nil)
        #expect(!outcome.requests.isEmpty)
    }

    @Test func parsesFields() throws {
        let (outcome, _) = parseEveryWay(
            "GET /world/1/2/3@2x.png?floor=2&x=a%20b HTTP/1.1\r\nHost: tiles\r\nX-Thing:  padded value \t\r\n\r\n")
        let request = try #require(outcome.requests.first)
        #expect(request.method == .get)
        #expect(request.pathSegments == ["world", "1", "2", "3@2x.png"])
        #expect(request.query == "floor=2&x=a%20b")
        #expect(request.queryItems.map(\.name) == ["floor", "x"] && request.queryItems.last?.value == "a b")
        #expect(request.headers["x-thing"] == "padded value")
        #expect(request.headers[.host] == "tiles")
        #expect(request.version == .http1_1)
        #expect(request.keepAlive)
    }

    @Test func pipelinedRequestsComeOutInOrder() {
        let (outcome, _) = parseEveryWay(
            "GET /a HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nxyzGET /c HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(outcome.requests.map(\.pathSegments) == [["a"], ["b"], ["c"]])
        #expect(outcome.requests[1].body == Array("xyz".utf8))
    }

    @Test func keepAliveRules() {
        let (outcome, _) = parseEveryWay(
            "GET / HTTP/1.0\r\n\r\nGET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(outcome.requests.map(\.keepAlive) == [false, true, false])
    }

    /// The Connection field's options: any case, any whitespace around, in any of its fields;
    /// an option is a whole element, not part of one; "close" wins in any version (RFC 9112 §9.3).
    @Test(arguments: [
        ("HTTP/1.1", "Connection: Keep-Alive", true),
        ("HTTP/1.1", "Connection: keep-alive, CLOSE", false),
        ("HTTP/1.1", "Connection: upgrade\r\nConnection: \tclose\t", false),
        ("HTTP/1.1", "Connection: closed, ,close-me", true),
        ("HTTP/1.1", "Connection: ,", true),
        ("HTTP/1.0", "Connection: Upgrade ,  KEEP-ALIVE ", true),
        ("HTTP/1.0", "Connection: keep-alives", false),
        ("HTTP/1.0", "Connection: keep-alive\r\nConnection: close", false),
        ("HTTP/1.0", "Connection: close, keep-alive", false),
        ("HTTP/1.0", "X-Connection: keep-alive", false),
    ])
    func connectionOptions(version: String, fields: String, keepAlive: Bool) throws {
        var parser = HTTPRequestParser()
        parser.append(Array("GET / \(version)\r\nHost: h\r\n\(fields)\r\n\r\n".utf8))
        let request = try #require(try parser.next())
        #expect(request.keepAlive == keepAlive)
    }

    @Test(arguments: [
        ("GET / HTTP/1.1\r\n\r\n", HTTPParseError.missingOrDuplicateHost),
        ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .missingOrDuplicateHost),
        ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", .unsupportedVersion),
        ("GET / HTTX/1.1\r\nHost: a\r\n\r\n", .malformedRequestLine),
        ("GET  / HTTP/1.1\r\nHost: a\r\n\r\n", .malformedRequestLine),
        ("GET /\r\nHost: a\r\n\r\n", .malformedRequestLine),
        ("G(T / HTTP/1.1\r\nHost: a\r\n\r\n", .malformedRequestLine),
        ("GET / HTTP/1.1\r\nHost a\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", .malformedHeader),
        ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1x\r\n\r\n", .invalidContentLength),
        ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", .invalidContentLength),
        ("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
         .contentLengthWithTransferEncoding),
        ("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", .unsupportedTransferEncoding),
        ("GET /a/../b HTTP/1.1\r\nHost: a\r\n\r\n", .malformedTarget(reason: "dot segments (\".\" or \"..\") are not allowed")),
        ("GET nopath HTTP/1.1\r\nHost: a\r\n\r\n", .malformedTarget(reason: "the path must start with /")),
    ])
    func malformedInput(_ text: String, _ expected: HTTPParseError) {
        let (outcome, consistent) = parseEveryWay(text)
        #expect(consistent)
        #expect(outcome.error == expected)
        #expect(outcome.requests.isEmpty)
    }

    @Test func requestLineLimitGives414HoweverSplit() {
        let long = "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n"
        let input = Array(long.utf8)
        let whole = parse(input, pieces: [0 ..< input.count])
        let dripped = parse(input, pieces: (0 ..< input.count).map { $0 ..< $0 + 1 })
        #expect(whole.error == .requestLineTooLong(limit: 8192))
        #expect(dripped == whole)
        #expect(HTTPParseError.requestLineTooLong(limit: 8192).status == .uriTooLong)
    }

    @Test func requestLineExactlyAtTheLimitPasses() {
        // 8192 bytes before the LF, CR included.
        let target = "/" + String(repeating: "a", count: 8192 - "GET  HTTP/1.1\r".utf8.count - 1)
        let (outcome, consistent) = parseEveryWay("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(consistent)
        #expect(outcome.error == nil)
        let (over, _) = parseEveryWay("GET \(target)a HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(over.error == .requestLineTooLong(limit: 8192))
    }

    @Test func headerLimitGives431HoweverSplit() {
        let text = "GET / HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X-Filler: \(String(repeating: "b", count: 100))\r\n", count: 400) + "\r\n"
        let input = Array(text.utf8)
        let whole = parse(input, pieces: [0 ..< input.count])
        let dripped = parse(input, pieces: (0 ..< input.count).map { $0 ..< $0 + 1 })
        #expect(whole.error == .headersTooLarge(limit: 32768))
        #expect(dripped == whole)
        #expect(HTTPParseError.headersTooLarge(limit: 1).status == .requestHeaderFieldsTooLarge)
    }

    @Test func bodyLimitGives413() {
        let limits = HTTPParserLimits(maxBodyBytes: 10)
        let (outcome, _) = parseEveryWay("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n", limits: limits)
        #expect(outcome.error == .bodyTooLarge(limit: 10))
    }

    @Test func partialRequestIsReported() throws {
        var parser = HTTPRequestParser()
        #expect(!parser.hasPartialRequest)
        parser.append(Array("\r\n".utf8))
        #expect(!parser.hasPartialRequest)
        parser.append(Array("GET / HT".utf8))
        #expect(try parser.next() == nil)
        #expect(parser.hasPartialRequest)
        parser.append(Array("TP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(try parser.next() != nil)
        #expect(!parser.hasPartialRequest)
    }
}
