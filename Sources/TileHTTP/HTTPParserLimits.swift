/// Size limits the request parser enforces while bytes arrive.
public struct HTTPParserLimits: Sendable, Equatable {
    /// Longest request line, in bytes (414 beyond).
    public var maxRequestLineBytes: Int
    /// Largest header section (request line included), in bytes (431 beyond).
    public var maxHeaderBytes: Int
    /// Largest request body, in bytes (413 beyond).
    public var maxBodyBytes: Int
    /// Most header fields in one request (431 beyond).
    public var maxHeaderFields: Int

    /// Default request-line limit: 8 KiB, as nginx's `large_client_header_buffers`.
    public static let defaultRequestLineBytes = 8192
    /// Default header-section limit: 32 KiB.
    public static let defaultHeaderBytes = 32768
    /// Default body limit: 16 KiB (no tile route takes a body; admin requests carry none to speak of).
    public static let defaultBodyBytes = 16 << 10
    /// Default header field limit: 100, as NIO's and Go's servers allow about as many.
    public static let defaultHeaderFields = 100

    /// Limits, each with its default.
    public init(
        maxRequestLineBytes: Int = defaultRequestLineBytes,
        maxHeaderBytes: Int = defaultHeaderBytes,
        maxBodyBytes: Int = defaultBodyBytes,
        maxHeaderFields: Int = defaultHeaderFields
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderFields = maxHeaderFields
    }
}
