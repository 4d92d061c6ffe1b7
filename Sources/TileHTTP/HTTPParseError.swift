/// Why a request could not be parsed; each case maps to one 4xx/5xx answer.
public enum HTTPParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request line is longer than the limit (414).
    case requestLineTooLong(limit: Int)
    /// The header section is larger than the limit (431).
    case headersTooLarge(limit: Int)
    /// More header fields than the limit (431).
    case tooManyHeaderFields(limit: Int)
    /// The request line is not `METHOD SP target SP HTTP/x.y` (400).
    case malformedRequestLine
    /// A header line is not `name: value` (400).
    case malformedHeader
    /// The request target is not a valid origin-form path (400).
    case malformedTarget(reason: String)
    /// A protocol version other than HTTP/1.0 and HTTP/1.1 (505).
    case unsupportedVersion
    /// HTTP/1.1 without exactly one Host header (400, RFC 9112 §3.2).
    case missingOrDuplicateHost
    /// An invalid or conflicting Content-Length (400).
    case invalidContentLength
    /// Content-Length together with Transfer-Encoding (400, RFC 9112 §6.1).
    case contentLengthWithTransferEncoding
    /// A Transfer-Encoding (chunked request bodies are not supported) (501).
    case unsupportedTransferEncoding
    /// A body larger than the limit (413).
    case bodyTooLarge(limit: Int)

    /// The status this error is answered with.
    public var status: HTTPStatus {
        switch self {
        case .requestLineTooLong: return .uriTooLong
        case .headersTooLarge, .tooManyHeaderFields: return .requestHeaderFieldsTooLarge
        case .unsupportedVersion: return .httpVersionNotSupported
        case .unsupportedTransferEncoding: return .notImplemented
        case .bodyTooLarge: return .contentTooLarge
        default: return .badRequest
        }
    }

    public var description: String {
        switch self {
        case .requestLineTooLong(let limit): return "request line longer than \(limit) bytes"
        case .headersTooLarge(let limit): return "request header section larger than \(limit) bytes"
        case .tooManyHeaderFields(let limit): return "more than \(limit) header fields"
        case .malformedRequestLine: return "malformed request line (expected: METHOD /path HTTP/1.1)"
        case .malformedHeader: return "malformed header line (expected: Name: value)"
        case .malformedTarget(let reason): return "bad request target: \(reason)"
        case .unsupportedVersion: return "only HTTP/1.0 and HTTP/1.1 are supported"
        case .missingOrDuplicateHost: return "an HTTP/1.1 request needs exactly one Host header"
        case .invalidContentLength: return "invalid Content-Length"
        case .contentLengthWithTransferEncoding: return "Content-Length together with Transfer-Encoding"
        case .unsupportedTransferEncoding: return "Transfer-Encoding in requests is not supported"
        case .bodyTooLarge(let limit): return "request body larger than \(limit) bytes"
        }
    }
}
