import TileHTTP

extension ViewEndpoint {
    /// The answer to a `/camera` request: the view resolved exactly as `/static` resolves it, described
    /// with its visible region, centre, limits and the requested points and coordinates.
    func cameraResponse(_ request: HTTPRequest, _ route: StaticRoute) -> HTTPResponse {
        switch resolveView(request, route, probes: true) {
        case .view(let resolved):
            let body = resolved.view.cameraJSON(probes: resolved.query.probes).serialized
            return staticAnswer(request, body: Array(body.utf8), contentType: "application/json", layer: resolved.layer)
        case .refused(let answer):
            return answer
        }
    }
}
