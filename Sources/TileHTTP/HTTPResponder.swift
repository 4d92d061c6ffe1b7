/// Turns requests into responses: the whole application, seen from the connection.
public protocol HTTPResponder: Sendable {
    /// Answers `request`. Returns the response when it is ready at once (a cache hit, an error);
    /// otherwise returns nil and calls `completion` exactly once, later, from any thread.
    func respond(to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void) -> HTTPResponse?
}
