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

    /// See the extension's default.
    func answeredAgain(_ response: HTTPResponse)
}

extension HTTPResponder {
    /// Called on an event loop when a response the responder marked for reuse
    /// (`HTTPResponse.reuse`) is given again without asking it (`HTTPHeadMemo`), so it can count
    /// it as if it had answered. By default nothing.
    public func answeredAgain(_ response: HTTPResponse) {}
}
