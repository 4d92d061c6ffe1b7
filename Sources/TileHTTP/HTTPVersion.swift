/// The protocol version of a request: HTTP/1.0 or HTTP/1.1 (a later HTTP/1.x is served as
/// HTTP/1.1, RFC 9110 §6.2: the highest minor version we speak).
public enum HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    case http1_0
    case http1_1

    public var description: String { self == .http1_0 ? "HTTP/1.0" : "HTTP/1.1" }
}
