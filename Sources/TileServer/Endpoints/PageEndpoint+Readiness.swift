import Synchronization
import TileHTTP

extension PageEndpoint {
    /// `/readyz`: 200 `ready: N layers` while the service takes traffic and every layer's source
    /// answers (every layer was built before the service started; `LayerReadiness` checks its
    /// files are still there), 503 naming the layers that cannot serve, and 503 once it drains
    /// for a shutdown, so a load balancer or Kubernetes stops sending new requests while the
    /// ones in flight finish. `/healthz` stays liveness only. Runs on a worker (it stats files).
    func readinessAnswer() -> HTTPResponse {
        let headers: HTTPHeaders = [.cacheControl: "no-store"]
        if draining.isOn {
            return HTTPResponse.text(.serviceUnavailable, "shutting down: not taking new requests",
                                     headers: [.cacheControl: "no-store", .retryAfter: "1"])
        }
        let layers = state.layers.layers
        let problems = layers.compactMap { layer in LayerReadiness.problem(of: layer).map { "layer \"\(layer.name)\": \($0)" } }
        guard problems.isEmpty else {
            return HTTPResponse.text(.serviceUnavailable, "not ready: " + problems.joined(separator: "; "), headers: headers)
        }
        return HTTPResponse.text(.ok, "ready: \(layers.count) layers", headers: headers)
    }
}

/// Whether a shutdown began (`TileService.beginDraining`): `/readyz` then answers 503.
final class Draining: Sendable {
    private let on = Atomic<Bool>(false)

    var isOn: Bool { on.load(ordering: .relaxed) }

    func begin() { on.store(true, ordering: .relaxed) }
}
