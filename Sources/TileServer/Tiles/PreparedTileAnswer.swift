import Synchronization
import TileHTTP

/// A cached tile's 200 answer, built and encoded once (`HTTPResponse.prepared()`) and then
/// handed out as is: a hit builds no headers and no header text. The answer depends on the
/// layer (Cache-Control) and the server's CORS setting, so it is kept with those and rebuilt
/// when either changed (a reload).
final class PreparedTileAnswer: Sendable {
    private struct Entry {
        let layer: ObjectIdentifier
        let cors: String
        let response: HTTPResponse
    }

    private let entry = Mutex<Entry?>(nil)

    init() {}

    /// The answer for `layer` with `cors`, made by `make` the first time (or after a change).
    func response(layer: Layer, cors: String, make: () -> HTTPResponse) -> HTTPResponse {
        let id = ObjectIdentifier(layer)
        if let kept = entry.withLock({ $0 }), kept.layer == id, kept.cors == cors { return kept.response }
        let made = make().prepared()
        entry.withLock { $0 = Entry(layer: id, cors: cors, response: made) }
        return made
    }
}
