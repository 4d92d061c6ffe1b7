import TileGeometry

/// Reads `update=` values: `zoomIn`, `zoomOut`, `zoomTo:Z`, `zoomBy:D`, `zoomBy:D@X,Y`,
/// `scrollBy:DX,DY`, `setTarget:LON,LAT[,Z]`, `fit:W,S,E,N[,PADDING]` (SPEC "Camera API"; the names
/// of `GMSCameraUpdate`'s factory functions, coordinates `lon,lat` as everywhere in URLs).
enum ViewUpdateParser {
    /// What an error lists as the accepted forms.
    static let forms = "zoomIn, zoomOut, zoomTo:Z, zoomBy:D, zoomBy:D@X,Y, scrollBy:DX,DY, "
        + "setTarget:LON,LAT[,Z] or fit:W,S,E,N[,PADDING]"
    /// Largest scroll in points on either axis: a thousand times the world's width at zoom 22, so that
    /// no sum or rotation of scroll distances can overflow.
    static let maxScroll = 1e12

    /// The update `text` names; `index` is its 1-based position among the query's updates.
    static func parse(_ text: String, index: Int) throws(StaticMapError) -> ViewUpdate {
        let name: Substring, arguments: Substring?
        if let colon = text.firstIndex(of: ":") {
            name = text[..<colon]
            arguments = text[text.index(after: colon)...]
        } else {
            name = Substring(text)
            arguments = nil
        }
        do throws(StaticMapError) {
            return ViewUpdate(index: index, text: text, kind: try kind(name, arguments))
        } catch .badUpdate(_, _, let reason) {
            throw .badUpdate(index: index, text: text, reason: reason)
        } catch {
            throw .badUpdate(index: index, text: text, reason: error.description)
        }
    }

    // Reasons found below are thrown as `.badUpdate` without index or text; `parse` completes them.
    private static func kind(_ name: Substring, _ arguments: Substring?) throws(StaticMapError) -> ViewUpdate.Kind {
        switch (name, arguments) {
        case ("zoomIn", nil): return .camera(.zoomIn)
        case ("zoomOut", nil): return .camera(.zoomOut)
        case ("zoomTo", let text?):
            return .camera(.zoomTo(try numbers(text, ["zoom"], required: 1, expected: "zoomTo:Z")[0]))
        case ("zoomBy", let text?):
            return .camera(try zoomBy(text))
        case ("scrollBy", let text?):
            let values = try numbers(text, ["x", "y"], required: 2, expected: "scrollBy:DX,DY")
            if let far = values.first(where: { abs($0) > maxScroll }) {
                throw .badUpdate(index: 0, text: "", reason: "scroll \(far) is beyond ±\(maxScroll) points")
            }
            return .camera(.scrollBy(x: values[0], y: values[1]))
        case ("setTarget", let text?):
            let values = try numbers(text, ["lon", "lat", "zoom"], required: 2, expected: "setTarget:LON,LAT[,Z]")
            let target = Coordinate(latitude: values[1], longitude: values[0])
            return .camera(.setTarget(target, zoom: values.count > 2 ? values[2] : nil))
        case ("fit", let text?):
            return try fit(text)
        default:
            throw .badUpdate(index: 0, text: "", reason: "unknown update; expected \(forms)")
        }
    }

    /// `D` or `D@X,Y`.
    private static func zoomBy(_ text: Substring) throws(StaticMapError) -> CameraUpdate {
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let delta = try numbers(parts[0], ["delta"], required: 1, expected: "zoomBy:D or zoomBy:D@X,Y")[0]
        guard parts.count == 2 else { return .zoomBy(delta, point: nil) }
        let point = try numbers(parts[1], ["x", "y"], required: 2, expected: "zoomBy:D@X,Y")
        return .zoomBy(delta, point: ScreenPoint(x: point[0], y: point[1]))
    }

    /// `W,S,E,N` (checked as `bounds=` is) or `W,S,E,N,PADDING`.
    private static func fit(_ text: Substring) throws(StaticMapError) -> ViewUpdate.Kind {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 || parts.count == 5 else {
            throw .wrongCount(name: "fit", text: String(text), expected: "fit:W,S,E,N or fit:W,S,E,N,PADDING")
        }
        let box = try CameraQuery.bounds(text[..<(parts.count == 5 ? parts[3].endIndex : text.endIndex)])
        guard parts.count == 5 else { return .fit(box, padding: nil) }
        let padding = try numbers(parts[4], ["padding"], required: 1, expected: "fit:W,S,E,N,PADDING")[0]
        guard padding >= 0 else { throw .negativePadding(name: "padding", value: padding) }
        return .fit(box, padding: padding)
    }

    private static func numbers(_ text: Substring, _ names: [String], required: Int,
                                expected: String) throws(StaticMapError) -> [Double] {
        try StaticNumber.parseList(text, names: names, required: required, list: "arguments", expected: expected).get()
    }
}
