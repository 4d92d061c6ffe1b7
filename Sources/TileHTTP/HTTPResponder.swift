/// What the server knows about a request besides its bytes.
public struct HTTPRequestContext: Sendable {
    /// The client's address.
    public var peer: String

    /// A context.
    public init(peer: String) {
        self.peer = peer
    }
}

/// Turns requests into responses: the whole application, seen from the connection.
public protocol HTTPResponder: Sendable {
    /// Answers `request`. Returns the response when it is ready at once (a cache hit, an error);
    /// otherwise returns nil and calls `completion` exactly once, later, from any thread.
    func respond(
        to request: HTTPRequest, context: HTTPRequestContext,
        completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse?

}
