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

    /// Called on the event loop (so it must not block) when a response this responder marked
    /// for reuse (`HTTPResponse.reuse`) is given again to the same request head without asking
    /// it (`HTTPHeadMemo`), so it can count it as if it had answered (`Mark.tag` says in what).
    func answeredAgain(_ response: HTTPResponse)
}

extension HTTPResponder {
    /// By default nothing is counted.
    public func answeredAgain(_ response: HTTPResponse) {}
}
