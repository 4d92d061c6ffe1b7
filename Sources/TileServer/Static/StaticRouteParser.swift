/// Reads `/static/{layer}/{camera}/{w}x{h}[@2x].{png|json}` paths (and `/camera`'s, which share
/// their shape) into a `StaticRoute`. Pure, as
/// `Router` is: values are checked for syntax and size here, clamped later against the layer.
enum StaticRouteParser {
    /// The first path segment of every static view.
    static let prefix = "static"

    /// The route for `segments` (the first is `prefix`).
    static func match(_ segments: [String]) -> RouteMatch {
        match(segments, formats: [.png, .json],
              usage: "static views live at /static/{layer}/{lon},{lat},{zoom}[,{bearing}[,{tilt}]]/{w}x{h}[@2x].png",
              route: Route.staticMap)
    }

    /// `/{prefix}/{layer}/{camera}/{w}x{h}[@2x].{format}` for any of `formats` as `route`, or `usage`
    /// as a 404 for a path of another shape: shared by `/static` and `/camera`.
    static func match(_ segments: [String], formats: [StaticRoute.Format], usage: String,
                      route: (StaticRoute) -> Route) -> RouteMatch {
        guard segments.count == 4, Router.isLayerName(segments[1]) else { return .notFound(usage) }
        let file = segments[3]
        guard let format = formats.first(where: { file.hasSuffix("." + $0.rawValue) }) else {
            return .notFound("\(segments[0]) views are " + formats.map { "." + $0.rawValue }.joined(separator: " or "))
        }
        let sizeText = file.dropLast(format.rawValue.count + 1)
        do throws(StaticMapError) {
            let camera = try cameraRequest(Substring(segments[2]))
            let (width, height, scale) = try size(sizeText)
            return .route(route(StaticRoute(layer: segments[1], camera: camera, width: width, height: height,
                                            scale: scale, format: format)))
        } catch {
            return .badRequest(error.description)
        }
    }

    /// `auto` or `{lon},{lat},{zoom}[,{bearing}[,{tilt}]]`.
    static func cameraRequest(_ text: Substring) throws(StaticMapError) -> StaticRoute.CameraRequest {
        if text == "auto" { return .auto }
        let values = try StaticNumber.parseList(text, names: ["lon", "lat", "zoom", "bearing", "tilt"], required: 3,
                                                list: "camera", expected: "{lon},{lat},{zoom}[,{bearing}[,{tilt}]] or auto").get()
        return .explicit(longitude: values[0], latitude: values[1], zoom: values[2],
                         bearing: values.count > 3 ? values[3] : 0, tilt: values.count > 4 ? values[4] : 0)
    }

    /// `{w}x{h}` or `{w}x{h}@2x`: points and scale, each side at most `maxPixelSide` pixels.
    static func size(_ text: Substring) throws(StaticMapError) -> (width: Int, height: Int, scale: Int) {
        var body = text
        var scale = 1
        if body.hasSuffix("@2x") {
            scale = 2
            body = body.dropLast(3)
        }
        let sides = body.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2 else { throw .badSize(text: String(text)) }
        var values: [Int] = []
        for (side, name) in zip(sides, ["width", "height"]) {
            guard !side.isEmpty, side.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                throw .notANumber(name: name, text: String(side))
            }
            // Longer than 5 digits is out of range whatever it says (and cannot overflow).
            let value = side.count > 5 ? Int.max : Int(side)!
            guard value >= 1, value <= StaticRoute.maxPixelSide / scale else {
                throw .sizeOutOfRange(name: name, value: String(side), scale: scale)
            }
            values.append(value)
        }
        return (values[0], values[1], scale)
    }
}
