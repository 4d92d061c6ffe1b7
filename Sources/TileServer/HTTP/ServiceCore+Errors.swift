import Logging
import TileHTTP

extension ServiceCore {
    /// The one place an error becomes an answer (Hummingbird's single catch site): status, short
    /// text body, `Cache-Control` (5xx, 503 and 401: `no-store`; a layer's "no tile": the layer's;
    /// other 4xx: short) and CORS. Server-side failures are logged here, once.
    func errorAnswer(_ error: ServiceError, to request: HTTPRequest) -> HTTPResponse {
        errorAnswer(error, to: request, cors: state.cors)
    }

    /// Adds the CORS headers of an answer to `request` (so browser clients can read it).
    func addCORS(to headers: inout HTTPHeaders, for request: HTTPRequest) {
        state.cors.addHeaders(to: &headers, for: request)
    }

    /// `errorAnswer(_:to:)` with the CORS policy of the state a request already read (a tile
    /// request's lookup), so the answer takes no second read of the service's state.
    func errorAnswer(_ error: ServiceError, to request: HTTPRequest, cors: CORSPolicy) -> HTTPResponse {
        let (status, text, caching, extra) = parts(of: error, request: request)
        var headers = HTTPHeaders()
        cors.addHeaders(to: &headers, for: request)
        headers.add(.cacheControl, caching)
        for (name, value) in extra { headers.add(name, value) }
        return .text(status, text, headers: headers)
    }

    /// Status, body text, `Cache-Control` and further headers of `error`; logs what the operator must see.
    private func parts(
        of error: ServiceError, request: HTTPRequest
    ) -> (HTTPStatus, String, String, [(HTTPHeaderName, String)]) {
        let short = ServiceError.requestErrorCacheControl
        let never = ServiceError.uncacheable
        switch error {
        case .notFound(let message):
            return (.notFound, message, short, [])
        case .badRequest(let message):
            return (.badRequest, message, short, [])
        case .methodNotAllowed(let method, let allow):
            return (.methodNotAllowed, "method \(method) not allowed here (allowed: \(allow))", short, [(.allow, allow)])
        case .bodyNotTaken:
            return (.contentTooLarge, "this route takes no request body", short, [])
        case .unauthorized:
            return (.unauthorized, "missing or wrong admin token (Authorization: Bearer <token>)", never,
                    [(HTTPHeaderName("WWW-Authenticate"), "Bearer realm=\"tilelayer admin\"")])
        case .noTile(_, let cacheControl):
            return (.notFound, "no tile here", cacheControl, [])
        case .unavailable(let message, let retryAfter):
            return (.serviceUnavailable, message, never, [(.retryAfter, String(retryAfter))])
        case .tileFailed(let failure, let layer):
            logger.error("tile source failed", metadata: ["layer": "\(layer)", "tile": "\(failure.key)", "error": "\(failure.error)"])
            let status = failure.error.status
            let text = status == .badGateway
                ? "layer \"\(layer)\": \(failure.error.description) (tile \(failure.key))"
                : "the source of layer \"\(layer)\" failed for tile \(failure.key); see the server log"
            return (status, text, never, [])
        case .reloadRefused(let reason):
            logger.error("reload refused; the old configuration stays", metadata: ["error": "\(reason)"])
            return (HTTPStatus(code: 422, reason: "Unprocessable Content"), "reload refused, the old configuration stays: \(reason)",
                    never, [])
        case .internalError(let message):
            logger.error("request failed", metadata: ["path": "\(request.target)", "error": "\(message)"])
            return (.internalServerError, message, never, [])
        }
    }
}
