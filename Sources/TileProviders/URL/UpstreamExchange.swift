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

extension HTTPClient {
    /// A GET of `url` with `headers` sent, and its whole answer read — head and body — within
    /// `seconds` (a layer's `timeoutSeconds`), at most `maxBodyBytes` of body.
    ///
    /// Not the async `execute(_:deadline:)`: its deadline covers only the head (its
    /// `Transaction`: "the user specified deadline is only used until we received the response
    /// head"), so an upstream that sent its head and then a byte now and then held the fetch,
    /// and every request coalesced onto it, for as long as it liked. The request here is
    /// AsyncHTTPClient's event-loop one: its deadline fails the request wherever it is, body
    /// included, and closes the connection (an abandoned fetch does not run on); the body is
    /// gathered on the client's event loop, so a busy executor of ours cannot make a tile that
    /// arrived in time miss its deadline. Cancelling the calling task cancels the request.
    /// `finished` runs once, on the client's event loop, as soon as the request is over (or at
    /// once when it cannot be made): before the calling task, on a busy executor, resumes.
    func answer(
        url: String, headers: [(String, String)], within seconds: Double, maxBodyBytes: Int,
        finished: @escaping @Sendable () -> Void = {}
    ) async throws -> UpstreamAnswer {
        var request: HTTPClient.Request
        do { request = try HTTPClient.Request(url: url, method: .GET) } catch { finished(); throw error }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let deadline = NIODeadline.now() + .nanoseconds(Int64(seconds * 1e9))
        let task = execute(request: request, delegate: ResponseAccumulator(request: request, maxBodySize: maxBodyBytes),
                           deadline: deadline)
        task.futureResult.whenComplete { _ in finished() }
        let response = try await withTaskCancellationHandler {
            try await task.futureResult.get()
        } onCancel: {
            task.cancel()
        }
        let fields = response.headers
        return UpstreamAnswer(status: response.status.code, retryAfter: fields.first(name: "Retry-After"),
                              cacheControl: fields.first(name: "Cache-Control"), expires: fields.first(name: "Expires"),
                              etag: fields.first(name: "ETag"), body: response.body.map { Array($0.readableBytesView) } ?? [])
    }
}
