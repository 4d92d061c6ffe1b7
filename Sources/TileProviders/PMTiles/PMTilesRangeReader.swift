import AsyncHTTPClient
import NIOCore

/// Where a remote PMTiles archive's byte ranges come from: HTTP(S) `Range` requests
/// (`PMTilesRangeReader`) or another store's reads (S3 through GDAL's VSI, in TileImagery).
public protocol PMTilesRangeSource: Sendable {
    /// `length` bytes at `offset`; `etag`, when known, pins the version read before. A short
    /// answer at the end of the file is allowed only when `allowShort`.
    func read(offset: UInt64, length: UInt64, etag: String?, allowShort: Bool) async throws(TileProviderError) -> PMTilesRangeReader.Outcome
}

/// Reads byte ranges of a remote PMTiles archive with HTTP `Range` requests (RFC 9110 §14),
/// pinning the archive's version with `If-Match` (§13.1.1) once its ETag is known.
///
/// `@unchecked Sendable`: every stored property is immutable; `HTTPClient` is thread-safe.
public final class PMTilesRangeReader: PMTilesRangeSource, @unchecked Sendable {
    /// What a range read gave.
    public enum Outcome: Sendable {
        /// The bytes, and the archive's strong ETag when the server sent one.
        case bytes([UInt8], etag: String?)
        /// 412: the archive is no longer the version `etag` named.
        case changed
        /// Not there now (404, 410, 5xx, 429, refused, timed out): try again after the seconds given.
        case unavailable(retryAfter: Int, reason: String)
    }

    let url: String
    private let settings: UpstreamSettings
    private let client: HTTPClient

    init(url: String, settings: UpstreamSettings) {
        self.url = url
        self.settings = settings
        var configuration = HTTPClient.Configuration(
            timeout: .init(connect: .milliseconds(Int64(settings.connectTimeout * 1000))),
            connectionPool: .init(idleTimeout: .seconds(60),
                                  concurrentHTTP1ConnectionsPerHostSoftLimit: settings.maxConcurrency))
        configuration.redirectConfiguration = .follow(max: 3, allowCycles: false)
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    deinit { client.shutdown { _ in } }

    /// `length` bytes at `offset`; `etag` (strong) is sent as `If-Match`. A short answer at the
    /// end of the file is allowed only when `allowShort` (the first 16 KiB of a small archive).
    public func read(offset: UInt64, length: UInt64, etag: String?, allowShort: Bool = false) async throws(TileProviderError) -> Outcome {
        guard length > 0, length <= UInt64(settings.maxBodyBytes) else {
            throw .upstream(url: url, reason: "a range of \(length) bytes is over the \(settings.maxBodyBytes)-byte limit")
        }
        var headers = [("User-Agent", settings.userAgent), ("Range", "bytes=\(offset)-\(offset + length - 1)")]
        if let etag { headers.append(("If-Match", etag)) }
        headers += settings.headers.map { ($0.key, $0.value) }
        let status: UInt, servedETag: String?, retryAfter: String?, body: [UInt8]
        do {
            // One deadline for the head and the body (`HTTPClient.answer`).
            let response = try await client.answer(url: url, headers: headers, within: settings.totalTimeout,
                                                   maxBodyBytes: settings.maxBodyBytes)
            (status, servedETag, retryAfter, body) = (response.status, response.etag, response.retryAfter, response.body)
        } catch {
            let kind = UpstreamFailureKind(error: error)
            guard kind == .timeout || kind == .connect else { throw .upstream(url: url, reason: "\(error)") }
            return .unavailable(retryAfter: settings.retryAfter, reason: "\(error)")
        }
        switch status {
        case 206:
            guard body.count == Int(length) || (allowShort && !body.isEmpty && body.count < Int(length)) else {
                throw .upstream(url: url, reason: "asked for \(length) bytes at \(offset), got \(body.count)")
            }
            // RFC 9110 §13.1.1: If-Match compares strongly; a weak ETag cannot pin a version.
            return .bytes(body, etag: servedETag.flatMap { $0.hasPrefix("W/") ? nil : $0 })
        case 200:
            // RFC 9110 §14.2: a server may ignore Range; reading whole archives is not an option.
            throw .upstream(url: url, reason: "the server ignores Range requests (200 instead of 206)")
        case 412:
            return .changed
        default:
            let retry = retryAfter.flatMap { Int($0) } ?? settings.retryAfter
            return .unavailable(retryAfter: max(1, retry), reason: "HTTP \(status)")
        }
    }
}
