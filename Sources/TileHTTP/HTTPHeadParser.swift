/// Parses one complete header section (request line and fields) into an `HTTPRequest`.
enum HTTPHeadParser {
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")
    private static let colon = UInt8(ascii: ":")
    private static let cr = UInt8(ascii: "\r")

    /// Parses `head`, which ends with the empty line.
    static func parse(_ head: ArraySlice<UInt8>, maxFields: Int = HTTPParserLimits.defaultHeaderFields)
        throws(HTTPParseError) -> HTTPRequest
    {
        // Line by line, in place: no array of lines.
        var rest = head[...]
        func nextLine() -> ArraySlice<UInt8>? {
            guard !rest.isEmpty else { return nil }
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            var line = rest[rest.startIndex ..< end]
            rest = end < rest.endIndex ? rest[(end + 1)...] : rest[rest.endIndex...]
            if line.last == cr { line = line.dropLast() }
            return line
        }
        guard let requestLine = nextLine(), !requestLine.isEmpty else { throw .malformedRequestLine }
        let (method, target, version) = try parseRequestLine(requestLine)
        var headers = HTTPHeaders(reservingCapacity: min(maxFields, 16))
        while let line = nextLine() {
            // The head ends with an empty line (and the parser hands over nothing after it).
            if line.isEmpty {
                guard rest.allSatisfy({ $0 == cr || $0 == UInt8(ascii: "\n") }) else { throw .malformedHeader }
                break
            }
            if headers.count >= maxFields { throw .tooManyHeaderFields(limit: maxFields) }
            let (name, value) = try parseField(line)
            headers.add(HTTPHeaderName(name), value)
        }
        // RFC 9112 §3.2: a server must answer 400 to an HTTP/1.1 request without exactly one Host.
        if version == .http1_1 && headers.count(of: .host) != 1 { throw .missingOrDuplicateHost }
        let parsedTarget = try HTTPRequestTarget(parsing: target)
        // RFC 9112 §3.2.4: the asterisk form is for a server-wide OPTIONS only.
        if parsedTarget.isAsterisk && method != .options {
            throw .malformedTarget(reason: "\"*\" is a target for OPTIONS only")
        }
        // RFC 9112 §3.2.2: with an absolute-form target, its authority is the host; Host is ignored.
        if let authority = parsedTarget.authority { headers.set(.host, authority) }
        return HTTPRequest(method: method, target: target, pathSegments: parsedTarget.pathSegments,
                           query: parsedTarget.query, version: version, headers: headers)
    }

    private static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError)
        -> (HTTPMethod, String, HTTPVersion)
    {
        // "METHOD SP TARGET SP VERSION": exactly two spaces (no array of parts).
        guard let firstSpace = line.firstIndex(of: space) else { throw .malformedRequestLine }
        let method = line[..<firstSpace]
        let afterMethod = line[(firstSpace + 1)...]
        guard let secondSpace = afterMethod.firstIndex(of: space) else { throw .malformedRequestLine }
        let target = afterMethod[..<secondSpace]
        let versionBytes = afterMethod[(secondSpace + 1)...]
        guard !versionBytes.contains(space), !method.isEmpty, !target.isEmpty,
              method.allSatisfy(isTokenByte) else { throw .malformedRequestLine }
        // The target: visible ASCII only (RFC 3986 has no raw spaces, controls or non-ASCII).
        guard target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .malformedTarget(reason: "raw control, space or non-ASCII byte in the target")
        }
        let version: HTTPVersion
        if equals(versionBytes, "HTTP/1.1") {
            version = .http1_1
        } else if equals(versionBytes, "HTTP/1.0") {
            version = .http1_0
        } else if isLaterHTTP1(versionBytes) {
            version = .http1_1  // RFC 9110 §6.2: answer a later 1.x as the highest 1.x we speak
        } else if isVersionShaped(Array(versionBytes)) {
            throw .unsupportedVersion
        } else {
            throw .malformedRequestLine
        }
        return (methodToken(method), String(decoding: target, as: UTF8.self), version)
    }

    /// The method's token; GET and HEAD (nearly every request) without decoding a string.
    private static func methodToken(_ bytes: ArraySlice<UInt8>) -> HTTPMethod {
        if equals(bytes, "GET") { return .get }
        if equals(bytes, "HEAD") { return .head }
        return HTTPMethod(String(decoding: bytes, as: UTF8.self))
    }

    /// Whether `bytes` are exactly `text`'s bytes (compared in memory, no iterator over a String).
    private static func equals(_ bytes: ArraySlice<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        return bytes.withUnsafeBufferPointer { $0.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)) }
    }

    /// "HTTP/1.d" with d from 2 to 9.
    private static func isLaterHTTP1(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count == 8 && bytes.starts(with: "HTTP/1.".utf8)
            && bytes.last! >= UInt8(ascii: "2") && bytes.last! <= UInt8(ascii: "9")
    }

    /// "HTTP/d.d": a well-formed version we do not speak (505), as opposed to garbage (400).
    private static func isVersionShaped(_ bytes: [UInt8]) -> Bool {
        let digit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        return bytes.count == 8 && bytes.starts(with: "HTTP/".utf8) && digit(bytes[5])
            && bytes[6] == UInt8(ascii: ".") && digit(bytes[7])
    }

    private static func parseField(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (String, String) {
        // RFC 9112 §5.2: obsolete line folding is rejected.
        guard let first = line.first, first != space, first != tab,
              let colonIndex = line.firstIndex(of: colon) else { throw .malformedHeader }
        let name = line[line.startIndex ..< colonIndex]
        // RFC 9112 §5.1: no whitespace between the field name and the colon.
        guard !name.isEmpty, name.allSatisfy(isTokenByte) else { throw .malformedHeader }
        var value = line[(colonIndex + 1)...]
        while let f = value.first, f == space || f == tab { value.removeFirst() }
        while let l = value.last, l == space || l == tab { value.removeLast() }
        guard value.allSatisfy({ $0 == tab || ($0 >= 0x20 && $0 != 0x7F) }) else { throw .malformedHeader }
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// The body length the head announces (RFC 9112 §6.3).
    static func bodyLength(of request: HTTPRequest, limit: Int) throws(HTTPParseError) -> Int {
        let lengths = request.headers.values(.contentLength)
        let hasTransferEncoding = request.headers[.transferEncoding] != nil
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
