import AsyncHTTPClient
import NIOCore

/// An upstream's whole answer: status, the head fields tilelayer reads, and body, read under
/// one deadline.
struct UpstreamAnswer: Sendable {
    /// The status code.
    var status: UInt
    /// `Retry-After`, `Cache-Control`, `Expires` and `ETag`, when sent.
    var retryAfter, cacheControl, expires, etag: String?
    /// The whole body.
    var body: [UInt8]
}

/// The deadline of an upstream exchange passed before its last body byte.
struct UpstreamDeadlineExceeded: Error, CustomStringConvertible {
    /// The deadline, seconds after the request was sent.
    let seconds: Double
    var description: String { "no whole answer within \(seconds) s (head and body)" }
}

extension HTTPClient {
    /// `request` sent and its whole answer read — head and body — within `seconds` (a layer's
    /// `timeoutSeconds`). AsyncHTTPClient's own deadline covers only the head (its
    /// `Transaction`: "the user specified deadline is only used until we received the response
    /// head"), so an upstream that sends its head and then a byte now and then held the fetch,
    /// and every request coalesced onto it, for as long as it liked. Here the body is read in a
    /// child task that is cancelled at the deadline; AsyncHTTPClient then closes the connection,
    /// so an abandoned fetch does not run on.
    func answer(to request: HTTPClientRequest, within seconds: Double, maxBodyBytes: Int) async throws -> UpstreamAnswer {
        let deadline = NIODeadline.now() + .nanoseconds(Int64(seconds * 1e9))
        return try await withThrowingTaskGroup(of: UpstreamAnswer?.self) { group in
            group.addTask {
                let response = try await self.execute(request, deadline: deadline)
                let body = try await response.body.collect(upTo: maxBodyBytes)
                let fields = response.headers
                return UpstreamAnswer(status: response.status.code, retryAfter: fields.first(name: "Retry-After"),
                                      cacheControl: fields.first(name: "Cache-Control"),
                                      expires: fields.first(name: "Expires"), etag: fields.first(name: "ETag"),
                                      body: Array(body.readableBytesView))
            }
            group.addTask {
                try await _Concurrency.Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            // The first to end decides: the answer, its error, or the deadline (nil).
            guard let first = try await group.next(), let answer = first else {
                throw UpstreamDeadlineExceeded(seconds: seconds)
            }
            return answer
        }
    }
}
