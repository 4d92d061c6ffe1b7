/// Serializes a response head; the body goes out after it, untouched, in the same `writev`.
/// The head is three pieces: the fields (status line, headers, Content-Length), which a response
/// sent many times can carry already encoded (`HTTPResponse.preparedHead`); the shared Date line;
/// and the tail (Connection, end of head), one of a few constant byte strings.
enum HTTPResponseEncoder {
    private static let crlf: [UInt8] = [13, 10]

    /// The status line, header fields and Content-Length of `response`.
    static func fields(of response: HTTPResponse) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + response.headers.count * 48)
        out.append(contentsOf: "HTTP/1.1 ".utf8)
        appendDecimal(Int(response.status.code), to: &out)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: response.status.reason.utf8)
        out.append(contentsOf: crlf)
        for field in response.headers {
            out.append(contentsOf: field.name.rawValue.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: crlf)
        }
        // RFC 9110 §8.6: no Content-Length on 1xx/204; on 304 it would describe the
        // selected representation, which we do not repeat.
        if !response.status.forbidsBody {
            out.append(contentsOf: "Content-Length: ".utf8)
            appendDecimal(response.contentLength, to: &out)
            out.append(contentsOf: crlf)
        }
        return out
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

    /// Appends the decimal digits of `value` (≥ 0) without making a `String`.
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var remaining = max(0, value)
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0
            out.append(contentsOf: buffer[index...])
        }
    }
}
