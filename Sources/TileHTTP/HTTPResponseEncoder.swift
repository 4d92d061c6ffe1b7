/// Serializes a response head; the body goes out after it, untouched, in the same `writev`.
enum HTTPResponseEncoder {
    private static let crlf: [UInt8] = [13, 10]

    /// The status line and header section, ending with the empty line.
    /// - Parameters:
    ///   - keepAlive: whether the connection stays open after this response.
    ///   - version: the request's version (an HTTP/1.0 keep-alive must be announced).
    static func head(
        for response: HTTPResponse, keepAlive: Bool, version: HTTPVersion, dateLine: [UInt8]
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256 + response.headers.count * 48)
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
        out.append(contentsOf: dateLine)
        if !keepAlive {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if version == .http1_0 {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: crlf)
        return out
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
