/// Serializes a response head; the body goes out after it, untouched, in the same `writev`.
/// The head is three pieces: the fields (status line, headers, Content-Length), which a response
/// sent many times can carry already encoded (`HTTPResponse.preparedHead`); the shared Date line;
/// and the tail (Connection, end of head), one of a few constant byte strings.
enum HTTPResponseEncoder {
    private static let crlf: [UInt8] = [13, 10]

    /// The status line, header fields and Content-Length of `response`: sized first, then
    /// written with one copy per piece into an array made at that size.
    /// `contentLength`, when given, replaces the response's own (a head prepared for a file body
    /// attached later).
    static func fields(of response: HTTPResponse, contentLength: Int? = nil) -> [UInt8] {
        let headers = response.headers
        let reason = response.status.reason
        let sendsLength = !response.status.forbidsBody
        // "HTTP/1.1 " + code (an open vocabulary: room for any Int) + " " + reason + CRLF; each field "name: value" + CRLF;
        // "Content-Length: " + at most 20 digits + CRLF.
        var size = 9 + 20 + 1 + reason.utf8.count + 2 + (sendsLength ? 16 + 20 + 2 : 0)
        for field in headers { size += field.name.rawValue.utf8.count + 2 + field.value.utf8.count + 2 }
        return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var out = ByteWriter(buffer)
            out.write("HTTP/1.1 ")
            out.writeDigits(UInt64(max(0, response.status.code)))
            out.write(UInt8(ascii: " "))
            out.write(contentsOf: reason)
            out.write("\r\n")
            for field in headers {
                out.write(contentsOf: field.name.rawValue)
                out.write(": ")
                out.write(contentsOf: field.value)
                out.write("\r\n")
            }
            // RFC 9110 §8.6: no Content-Length on 1xx/204; on 304 it would describe the
            // selected representation, which we do not repeat.
            if sendsLength {
                out.write("Content-Length: ")
                out.writeDigits(UInt64(max(0, contentLength ?? response.contentLength)))
                out.write("\r\n")
            }
            initialized = out.count
        }
    }

    private static let closeTail = Array("Connection: close\r\n\r\n".utf8)
    private static let keepAlive10Tail = Array("Connection: keep-alive\r\n\r\n".utf8)

    /// What follows the Date line: the Connection field where one is needed, and the empty line.
    /// - Parameters:
    ///   - keepAlive: whether the connection stays open after this response.
    ///   - version: the request's version (an HTTP/1.0 keep-alive must be announced).
    static func tail(keepAlive: Bool, version: HTTPVersion) -> [UInt8] {
        if !keepAlive { return closeTail }
        return version == .http1_0 ? keepAlive10Tail : crlf
    }
}
