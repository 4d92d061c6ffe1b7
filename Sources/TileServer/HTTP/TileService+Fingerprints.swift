import TileHTTP
import TileProviders

extension TileService {
    /// The body of a tile answered by its fingerprint, attached to each answer.
    enum FingerprintedBody {
        /// A tile file, sent with `sendfile`.
        case file(HTTPFileBody)
        /// Bytes read for this answer.
        case bytes([UInt8])
        /// Bytes lent for this answer where they lie (an MBTiles file's pages).
        case lent(LentTileBytes)

        var count: Int {
            switch self {
            case .file(let file): return file.count
            case .bytes(let bytes): return bytes.count
            case .lent(let lent): return lent.count
            }
        }
    }

    /// The answer for a tile whose contents' version has `fingerprint` (`TileFingerprints`):
    /// to a conditional request, a head made now (200, or 304 when the client's copy matches)
    /// with `body` on a 200; to an unconditional one, the version's 200 with its head encoded
    /// once (the body's length is part of the version) and `body` attached. `cors`: the policy
    /// of the state the request was read on.
    func fingerprintedAnswer(
        _ request: HTTPRequest, _ fingerprint: TileFingerprint, lastModified: Int, layer: Layer, cors: CORSPolicy,
        body: FingerprintedBody
    ) -> HTTPResponse {
        func head() -> HTTPResponse {
            tileHead(request, etag: fingerprint.etag, lastModified: lastModified,
                     lastModifiedText: fingerprint.lastModifiedText, age: nil, layer: layer, cors: cors)
        }
        if HTTPConditional.isConditional(request.headers) {
            var response = head()
            if response.status == .ok {
                switch body {
                case .file(let file): response.file = file
                case .bytes(let bytes): response.body = bytes
                case .lent(let lent): response.lent = lent
                }
            }
            return response
        }
        let prepared = fingerprint.preparedAnswer.response(layer: layer, cors: cors.answerKey(for: request)) {
            head().prepared(bodyCount: body.count)
        }
        switch body {
        case .file(let file): return prepared.sendingFile(file)
        case .bytes(let bytes): return prepared.sending(bytes)
        case .lent(let lent): return prepared.sending(lent: lent)
        }
    }
}

/// A lent tile is sent as a lent body: its pieces handed to `writev` (or, from an immutable
/// file, its pages lent to the socket), ended once sent or copied.
extension LentTileBytes: HTTPLentBody {}
