import Synchronization
import TileHTTP

extension TileService {
    /// `/readyz`: 200 `ready` while the service takes traffic (every layer was built before it
    /// started), 503 once it drains for a shutdown, so a load balancer or Kubernetes stops
    /// sending new requests while the ones in flight finish. `/healthz` stays liveness only.
    func readinessAnswer() -> HTTPResponse {
        let layers = state.layers.layers.count
        if draining.load(ordering: .relaxed) {
            return HTTPResponse.text(.serviceUnavailable, "shutting down: not taking new requests",
                                     headers: [.cacheControl: "no-store", .retryAfter: "1"])
        }
        return HTTPResponse.text(.ok, "ready: \(layers) layers", headers: [.cacheControl: "no-store"])
    }

    /// Marks the service as draining (a shutdown began): `/readyz` answers 503 from now on.
    public func beginDraining() {
        draining.store(true, ordering: .relaxed)
    }
}
