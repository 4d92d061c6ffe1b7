import TileGeometry

/// A tile URL template (`https://{s}.tiles.example.org/{z}/{x}/{y}.png`,
/// `file://tiles/floorplans/L{floor}_{z}_{x}_{y}.png`), parsed once and checked at start-up.
///
/// Placeholders: `{x}` `{y}` `{z}` `{-y}` (TMS row) `{q}` (quadkey) `{s}` (subdomain) and the
/// named variables declared with the template. It must locate a tile: `{z}`, `{x}` and `{y}`
/// or `{-y}`, or else `{q}`. Side-effect free, so it is tested without a network.
public struct URLTemplate: Sendable, Equatable, CustomStringConvertible {
    enum Part: Sendable, Equatable {
        case literal(String)
        case x, y, z, tmsY, quadkey, subdomain
        case variable(String)
    }

    /// The template as written.
    public let text: String
    let parts: [Part]
    /// Subdomains for `{s}`.
    public let subdomains: [String]
    /// Declared variables, by name.
    public let variables: [String: URLTemplateVariable]

    public var description: String { text }

    /// Parses and checks `text`.
    public init(
        _ text: String, subdomains: [String] = [], variables: [URLTemplateVariable] = []
    ) throws(TileProviderError) {
        try self.init(text, subdomains: subdomains, variables: variables, noun: "URL template")
    }

    /// Parses `text`; error messages call it `noun` ("URL template", "path template").
    init(
        _ text: String, subdomains: [String] = [], variables: [URLTemplateVariable] = [], noun: String
    ) throws(TileProviderError) {
        self.text = text
        self.subdomains = subdomains
        self.variables = Dictionary(variables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw .invalidConfiguration("\(noun) \"\(text)\" has an unclosed \"{\"")
            }
            let name = String(rest[rest.index(after: open) ..< close])
            switch name {
            case "x": parts.append(.x)
            case "y": parts.append(.y)
            case "z": parts.append(.z)
            case "-y": parts.append(.tmsY)
            case "q": parts.append(.quadkey)
            case "s":
                guard !subdomains.isEmpty else {
                    throw .invalidConfiguration("\(noun) \"\(text)\" uses {s} but no subdomains are configured")
                }
                parts.append(.subdomain)
            default:
                guard self.variables[name] != nil else {
                    throw .invalidConfiguration(
                        "\(noun) \"\(text)\" has an unknown placeholder {\(name)}; declare it under variables or use {x}, {y}, {z}, {-y}, {q}, {s}")
                }
                parts.append(.variable(name))
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        let locatesTile = (parts.contains(.z) && parts.contains(.x) && (parts.contains(.y) || parts.contains(.tmsY)))
            || parts.contains(.quadkey)
        guard locatesTile else {
            let missing = [("{z}", parts.contains(.z)), ("{x}", parts.contains(.x)),
                           ("{y}", parts.contains(.y) || parts.contains(.tmsY))].filter { !$0.1 }.map(\.0)
            throw .invalidConfiguration(
                "\(noun) \"\(text)\" has no \(missing.joined(separator: ", ")) placeholder (it needs {z}, {x} and {y} or {-y}, or {q})")
        }
        self.parts = parts
    }

    /// The URL of `request`. Variables missing from the request take their defaults.
    public func url(for request: TileRequest) -> String {
        string(for: request, after: "")
    }

    /// `prefix` followed by the URL of `request`, written into one string in one pass (a tile
    /// file's path is made on every request that reads it).
    func string(for request: TileRequest, after prefix: String) -> String {
        let tile = request.tile
        var capacity = prefix.utf8.count + text.utf8.count + 3 * 20 + tile.z
        for case .variable(let name) in parts { capacity += (request.variables[name] ?? variables[name]?.defaultValue ?? "").utf8.count }
        for case .subdomain in parts { capacity += subdomains.map(\.utf8.count).max() ?? 0 }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var count = 0
            func write(_ text: String) {
                for byte in text.utf8 { buffer[count] = byte; count += 1 }
            }
            func write(_ number: Int) {
                var value = number.magnitude
                if number < 0 { buffer[count] = UInt8(ascii: "-"); count += 1 }
                let start = count
                repeat {
                    buffer[count] = UInt8(ascii: "0") + UInt8(value % 10)
                    count += 1
                    value /= 10
                } while value > 0
                buffer[start ..< count].reverse()
            }
            write(prefix)
            for part in parts {
                switch part {
                case .literal(let text): write(text)
                case .x: write(tile.x)
                case .y: write(tile.y)
                case .z: write(tile.z)
                case .tmsY: write(tile.tmsY)
                case .quadkey: write(tile.quadkey)
                case .subdomain: write(subdomains[Self.subdomainIndex(for: tile, count: subdomains.count)])
                case .variable(let name): write(request.variables[name] ?? variables[name]?.defaultValue ?? "")
                }
            }
            return count
        }
    }

    /// The subdomain for a tile: a hash of the tile, not round-robin, so a tile always comes
    /// from the same host (its HTTP caches stay warm) while neighbours spread across hosts.
    static func subdomainIndex(for tile: TileCoordinate, count: Int) -> Int {
        var hash = UInt64(truncatingIfNeeded: tile.x) &* 0x9E37_79B9_7F4A_7C15
        hash ^= UInt64(truncatingIfNeeded: tile.y) &* 0xC2B2_AE3D_27D4_EB4F
        hash ^= UInt64(truncatingIfNeeded: tile.z) &* 0x1656_67B1_9E37_79F9
        hash ^= hash >> 29
        return Int(hash % UInt64(count))
    }
}
