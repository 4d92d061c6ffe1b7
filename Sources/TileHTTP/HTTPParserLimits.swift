/// Size limits the request parser enforces while bytes arrive.
public struct HTTPParserLimits: Sendable, Equatable {
    /// Longest request line, in bytes (414 beyond).
    public var maxRequestLineBytes: Int
    /// Largest header section (request line included), in bytes (431 beyond).
    public var maxHeaderBytes: Int
    /// Largest request body, in bytes (413 beyond).
    public var maxBodyBytes: Int

    /// Default request-line limit: 8 KiB, as nginx's `large_client_header_buffers`.
    public static let defaultRequestLineBytes = 8192
    /// Default header-section limit: 32 KiB.
    public static let defaultHeaderBytes = 32768
    /// Default body limit: 1 MiB (the server takes no uploads).
    public static let defaultBodyBytes = 1 << 20

    /// Limits, each with its default.
    public init(
        maxRequestLineBytes: Int = defaultRequestLineBytes,
        maxHeaderBytes: Int = defaultHeaderBytes,
        maxBodyBytes: Int = defaultBodyBytes
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }
}
