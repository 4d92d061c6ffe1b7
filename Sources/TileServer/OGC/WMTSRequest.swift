/// A WMTS 1.0.0 operation as a client asked for it, in the KVP or the RESTful encoding
/// (OGC 07-057r7 §7.1.2 and §7.2.2). Parsing only; `WMTSTileRequest.resolve` checks it against
/// the layers.
enum WMTSRequest: Sendable, Equatable {
    case getCapabilities
    case getTile(WMTSTileRequest)

    /// The only style a layer has.
    static let defaultStyle = "default"
    /// The protocol version.
    static let version = "1.0.0"

    /// KVP parameter names (compared case-insensitively, OGC 06-121r3 §11.5.2); other query
    /// parameters are the layer's URL variables.
    static let parameterNames: Set<String> = [
        "service", "request", "version", "acceptversions", "sections", "updatesequence", "acceptformats",
        "acceptlanguages", "layer", "style", "format", "tilematrixset", "tilematrix", "tilerow", "tilecol",
    ]

    /// The operation of a KVP request (`/wmts?SERVICE=WMTS&REQUEST=…`).
    static func parse(kvp query: [(name: String, value: String)]) -> Result<WMTSRequest, WMTSException> {
        var values: [String: String] = [:]
        for (name, value) in query where values[name.lowercased()] == nil { values[name.lowercased()] = value }
        guard let service = values["service"] else { return .failure(.missing("SERVICE")) }
        guard service.uppercased() == "WMTS" else { return .failure(.invalid("SERVICE", "SERVICE must be WMTS, not \"\(service)\"")) }
        guard let request = values["request"] else { return .failure(.missing("REQUEST")) }
        switch request.lowercased() {
        case "getcapabilities":
            return .success(.getCapabilities)
        case "gettile":
            guard let version = values["version"] else { return .failure(.missing("VERSION")) }
            guard version == Self.version else {
                return .failure(.invalid("VERSION", "VERSION must be \(Self.version), not \"\(version)\""))
            }
            var fields: [String] = []
            for name in ["LAYER", "STYLE", "FORMAT", "TILEMATRIXSET", "TILEMATRIX", "TILEROW", "TILECOL"] {
                guard let value = values[name.lowercased()] else { return .failure(.missing(name)) }
                fields.append(value)
            }
            return .success(.getTile(WMTSTileRequest(
                layer: fields[0], style: fields[1], format: .mediaType(fields[2]), tileMatrixSet: fields[3],
                tileMatrix: fields[4], tileRow: fields[5], tileCol: fields[6])))
        default:
            return .failure(WMTSException(code: .operationNotSupported, locator: "REQUEST",
                                          text: "REQUEST \"\(request)\" is not supported (GetCapabilities, GetTile)"))
        }
    }
}
