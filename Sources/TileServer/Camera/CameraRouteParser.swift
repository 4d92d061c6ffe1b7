/// Reads `/camera/{layer}/{camera}/{w}x{h}[@2x].json` paths: the shape of `/static`'s (same camera and
/// size syntax, one parser), answered only as JSON.
enum CameraRouteParser {
    /// The first path segment of every camera answer.
    static let prefix = "camera"

    /// The route for `segments` (the first is `prefix`).
    static func match(_ segments: [String]) -> RouteMatch {
        StaticRouteParser.match(segments, formats: [.json],
                                usage: "camera answers live at /camera/{layer}/{lon},{lat},{zoom}[,{bearing}[,{tilt}]]/{w}x{h}.json",
                                route: Route.camera)
    }
}
