/// Parses one complete header section (request line and fields) into an `HTTPRequest`.
enum HTTPHeadParser {
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let colon = UInt8(ascii: ":")
    private static let cr = UInt8(ascii: "\r")

    /// Parses `head`, which ends with the empty line. Read in place on the buffer's memory with
    /// integer offsets: no slices, iterators or intermediate strings but the request's own.
    /// `sections`, when given, is the loop's memo of header sections and the hash of this
    /// head's (`HTTPHeadMemo.lookUp`): one parsed before under the same limit is not parsed again.
    static func parse(
        _ head: ArraySlice<UInt8>, maxFields: Int = HTTPParserLimits.defaultHeaderFields,
        sections: (memo: HTTPFieldSectionMemo, hash: Int)? = nil
    ) throws(HTTPParseError) -> HTTPRequest {
        let parsed = head.withUnsafeBufferPointer { bytes in
            Result { () throws(HTTPParseError) -> HTTPRequest in try parse(bytes, maxFields: maxFields, sections: sections) }
        }
        return try parsed.get()
    }

    private static func parse(
        _ head: UnsafeBufferPointer<UInt8>, maxFields: Int, sections: (memo: HTTPFieldSectionMemo, hash: Int)?
    ) throws(HTTPParseError) -> HTTPRequest {
        var position = 0
        guard let requestLine = nextLine(of: head, from: &position), !requestLine.isEmpty else { throw .malformedRequestLine }
        let (method, targetRange, version) = try parseRequestLine(head, requestLine)
        let fieldsStart = position
        var headers: HTTPHeaders
        if let sections {
            let section = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: head[fieldsStart...]))
            headers = try sections.memo.fields(of: section, hash: sections.hash, maxFields: maxFields) {
                () throws(HTTPParseError) in try parseFields(head, from: fieldsStart, maxFields: maxFields)
            }
        } else {
            headers = try parseFields(head, from: fieldsStart, maxFields: maxFields)
        }
        // RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without exactly one Host.
        if version == .http1_1 && headers.count(of: .host) != 1 { throw .missingOrDuplicateHost }
        let targetBytes = UnsafeBufferPointer(rebasing: head[targetRange])
        let target = String(decoding: targetBytes, as: UTF8.self)
        // What map clients send: checked in place, its segments read from the target when asked.
        if let plain = try HTTPRequestTarget.plain(targetBytes) {
            return HTTPRequest(method: method, target: target, plainOrSegments: nil, query: plain.query,
                               version: version, headers: headers)
        }
        let parsedTarget = try HTTPRequestTarget(parsingGeneral: target)
        // RFC 9112 §3.2.4: the asterisk form is for a server-wide OPTIONS only.
        if parsedTarget.isAsterisk && method != .options {
            throw .malformedTarget(reason: "\"*\" is a target for OPTIONS only")
        }
        // RFC 9112 §3.2.2: with an absolute-form target, its authority is the host; Host is ignored.
        if let authority = parsedTarget.authority { headers.set(.host, authority) }
        return HTTPRequest(method: method, target: target, pathSegments: parsedTarget.pathSegments,
                           query: parsedTarget.query, version: version, headers: headers)
    }

    private static let lf = UInt8(ascii: "\n")

    /// The line of `head` that starts at `position` (without its CRLF or LF), moving `position`
    /// to the next one; nil at the end.
    private static func nextLine(of head: UnsafeBufferPointer<UInt8>, from position: inout Int) -> Range<Int>? {
        guard position < head.count else { return nil }
        let end = UnsafeRawBufferPointer(head).firstLineFeed(from: position) ?? head.count
        var line = position ..< end
        position = min(end + 1, head.count)
        if line.upperBound > line.lowerBound && head[line.upperBound - 1] == cr { line = line.lowerBound ..< line.upperBound - 1 }
        return line
    }

    /// The field lines of `head` from `start` to the empty line that ends it.
    private static func parseFields(
        _ head: UnsafeBufferPointer<UInt8>, from start: Int, maxFields: Int
    ) throws(HTTPParseError) -> HTTPHeaders {
        var position = start
        var headers = HTTPHeaders(reservingCapacity: min(maxFields, 16))
        while let line = nextLine(of: head, from: &position) {
            // The head ends with an empty line (and the parser hands over nothing after it).
            if line.isEmpty {
                for index in position ..< head.count where head[index] != cr && head[index] != lf { throw .malformedHeader }
                break
            }
            if headers.count >= maxFields { throw .tooManyHeaderFields(limit: maxFields) }
            let (name, value) = try parseField(head, line)
            headers.add(name, value)
        }
        return headers
    }

    private static func parseRequestLine(_ head: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) throws(HTTPParseError)
        -> (HTTPMethod, Range<Int>, HTTPVersion)
    {
        // "METHOD SP TARGET SP VERSION": exactly two spaces.
        guard let firstSpace = firstIndex(of: space, in: head, line) else { throw .malformedRequestLine }
        guard let secondSpace = firstIndex(of: space, in: head, firstSpace + 1 ..< line.upperBound) else {
            throw .malformedRequestLine
        }
        let method = line.lowerBound ..< firstSpace
        let target = firstSpace + 1 ..< secondSpace
        let versionRange = secondSpace + 1 ..< line.upperBound
        guard firstIndex(of: space, in: head, versionRange) == nil, !method.isEmpty, !target.isEmpty,
              method.allSatisfy({ isTokenByte(head[$0]) }) else { throw .malformedRequestLine }
        // The target: visible ASCII only (RFC 3986 has no raw spaces, controls or non-ASCII).
        guard target.allSatisfy({ head[$0] > 0x20 && head[$0] < 0x7F }) else {
            throw .malformedTarget(reason: "raw control, space or non-ASCII byte in the target")
        }
        let versionBytes = UnsafeBufferPointer(rebasing: head[versionRange])
        let version: HTTPVersion
        if equals(versionBytes, "HTTP/1.1") {
            version = .http1_1
        } else if equals(versionBytes, "HTTP/1.0") {
            version = .http1_0
        } else if isLaterHTTP1(versionBytes) {
            version = .http1_1  // RFC 9110 §6.2: answer a later 1.x as the highest 1.x we speak
        } else if isVersionShaped(versionBytes) {
            throw .unsupportedVersion
        } else {
            throw .malformedRequestLine
        }
        return (methodToken(UnsafeBufferPointer(rebasing: head[method])), target, version)
    }

    /// The first index of `byte` in `range` of `head`.
    private static func firstIndex(of byte: UInt8, in head: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        while index < range.upperBound {
            if head[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// The method's token; GET and HEAD (nearly every request) without decoding a string.
    private static func methodToken(_ bytes: UnsafeBufferPointer<UInt8>) -> HTTPMethod {
        if equals(bytes, "GET") { return .get }
        if equals(bytes, "HEAD") { return .head }
        return HTTPMethod(String(decoding: bytes, as: UTF8.self))
    }

    /// Whether `bytes` are exactly `text`'s bytes.
    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount
            && bytes.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// "HTTP/1.d" with d from 2 to 9.
    private static func isLaterHTTP1(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 8 && bytes.starts(with: "HTTP/1.".utf8)
            && bytes.last! >= UInt8(ascii: "2") && bytes.last! <= UInt8(ascii: "9")
    }

    /// "HTTP/d.d": a well-formed version we do not speak (505), as opposed to garbage (400).
    private static func isVersionShaped(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let digit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return bytes.count == 8 && bytes.starts(with: "HTTP/".utf8) && digit(bytes[5])
            && bytes[6] == UInt8(ascii: ".") && digit(bytes[7])
    }

    private static func parseField(_ head: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) throws(HTTPParseError)
        -> (HTTPHeaderName, String)
    {
        // RFC 9112 §5.2: obsolete line folding is rejected.
        guard !head[line.lowerBound].isSpaceOrTab, let colonIndex = firstIndex(of: colon, in: head, line) else {
            throw .malformedHeader
        }
        let name = line.lowerBound ..< colonIndex
        // RFC 9112 §5.1: no whitespace between the field name and the colon.
        guard !name.isEmpty, name.allSatisfy({ isTokenByte(head[$0]) }) else { throw .malformedHeader }
        var valueStart = colonIndex + 1
        var valueEnd = line.upperBound
        while valueStart < valueEnd, head[valueStart].isSpaceOrTab { valueStart += 1 }
        while valueEnd > valueStart, head[valueEnd - 1].isSpaceOrTab { valueEnd -= 1 }
        for index in valueStart ..< valueEnd {
            let byte = head[index]
            guard byte == tab || (byte >= 0x20 && byte != 0x7F) else { throw .malformedHeader }
        }
        return (HTTPHeaderName(bytes: UnsafeBufferPointer(rebasing: head[name])),
                String(decoding: UnsafeBufferPointer(rebasing: head[valueStart ..< valueEnd]), as: UTF8.self))
    }

    /// The body length the head announces (RFC 9112 §6.3).
    static func bodyLength(of request: HTTPRequest, limit: Int) throws(HTTPParseError) -> Int {
        // Most requests (a GET) announce no body: one pass over the fields, no array made.
        let headers = request.headers
        if headers.count(of: .contentLength) == 0 && headers.count(of: .transferEncoding) == 0 { return 0 }
        let lengths = headers.values(.contentLength)
        let hasTransferEncoding = headers[.transferEncoding] != nil
        if hasTransferEncoding && !lengths.isEmpty { throw .contentLengthWithTransferEncoding }
        if hasTransferEncoding { throw .unsupportedTransferEncoding }
        guard !lengths.isEmpty else { return 0 }
        var length: Int?
        for item in lengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let digits = item.trimmingSpaces
            guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy(\.isASCIIDigit), let value = Int(digits)
            else { throw .invalidContentLength }
            if let length, length != value { throw .invalidContentLength }
            length = value
        }
        let result = length ?? 0
        if result > limit { throw .bodyTooLarge(limit: limit) }
        return result
    }

    /// RFC 9110 §5.6.2 tchar.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
