import Testing
import TileHTTP
@testable import TileServer

@Suite struct RouterTests {
    @Test(arguments: [
        ([String](), Route.index),
        (["healthz"], .health),
        (["index.json"], .tileJSONIndex),
        (["world.json"], .tileJSON(layer: "world")),
        (["1", "2", "3.png"], .tile(TileRoute(layer: nil, z: 1, x: 2, y: 3, scale: 1, format: .png))),
        (["1", "2", "3@2x.png"], .tile(TileRoute(layer: nil, z: 1, x: 2, y: 3, scale: 2, format: .png))),
        (["world", "0", "0", "0.png"], .tile(TileRoute(layer: "world", z: 0, x: 0, y: 0, scale: 1, format: .png))),
        (["a-b_c9", "10", "1000", "5@2x.png"], .tile(TileRoute(layer: "a-b_c9", z: 10, x: 1000, y: 5, scale: 2, format: .png))),
        (["0", "0", "0.jpg"], .tile(TileRoute(layer: nil, z: 0, x: 0, y: 0, scale: 1, format: .jpg))),
        (["sat", "1", "2", "3.jpeg"], .tile(TileRoute(layer: "sat", z: 1, x: 2, y: 3, scale: 1, format: .jpg))),
        (["sat", "1", "2", "3@2x.webp"], .tile(TileRoute(layer: "sat", z: 1, x: 2, y: 3, scale: 2, format: .webp))),
        (["roads", "1", "2", "3.pbf"], .tile(TileRoute(layer: "roads", z: 1, x: 2, y: 3, scale: 1, format: .pbf))),
        (["roads", "1", "2", "3.mvt"], .tile(TileRoute(layer: "roads", z: 1, x: 2, y: 3, scale: 1, format: .pbf))),
    ])
    func matchesRoutes(_ segments: [String], _ route: Route) {
        #expect(Router.match(segments) == .route(route))
    }

    @Test(arguments: [
        ["a", "1", "2.png"], ["x", "y"], ["World", "1", "2", "3.png"], ["0", "0", "0.gif"], ["1", "2", "3", "4", "5.png"],
        ["0", "0", "0.PNG"], ["0", "0", "0"], ["0", "0", "0.png.jpg.tiff"],
        ["9ab.json"], ["0", "0", "0", "0.png"], ["1", "2", "99999999999.png"],
    ])
    func unknownPathsAreNotFound(_ segments: [String]) {
        guard case .notFound = Router.match(segments) else {
            Issue.record("expected notFound for \(segments)")
            return
        }
    }

    @Test(arguments: [
        ["1", "x", "3.png"], ["1", "2", "y.png"], ["-1", "0", "0.png"], ["1", "2", ".png"],
        ["world", "1", "2", "-3.png"], ["world", "1", "2", "3x.png"], ["1", "2", "3 .png"], ["world", "1", "-", "3.png"],
        ["world", "1", "--2", "3.png"],
    ])
    func nonNumbersAreBadRequests(_ segments: [String]) {
        guard case .badRequest(let reason) = Router.match(segments) else {
            Issue.record("expected badRequest for \(segments), got \(Router.match(segments))")
            return
        }
        #expect(reason.contains("is not a number"))
    }

    /// A refusal names the coordinate and its text as sent (for y: without "@2x" and the extension).
    @Test(arguments: [
        (["1", "2", "ab@2x.png"], RouteMatch.badRequest("y \"ab\" is not a number")),
        (["1", "2", "7z.webp"], .badRequest("y \"7z\" is not a number")),
        (["1", "q", "3.png"], .badRequest("x \"q\" is not a number")),
        (["1", "2", "12345678901@2x.png"], .notFound("y 12345678901 is out of range")),
    ])
    func refusalsNameTheCoordinate(_ segments: [String], _ expected: RouteMatch) {
        #expect(Router.match(segments) == expected)
    }

    /// x outside [0, 2^z) wraps (the map repeats east and west): a negative x is a tile, not a 400.
    @Test func negativeXIsATile() {
        #expect(Router.match(["world", "1", "-2", "3.png"]) == .route(.tile(TileRoute(layer: "world", z: 1, x: -2, y: 3, scale: 1, format: .png))))
        #expect(Router.match(["1", "-7", "0@2x.png"]) == .route(.tile(TileRoute(layer: nil, z: 1, x: -7, y: 0, scale: 2, format: .png))))
    }

    /// Paths of every shape: tiles, refusals, named prefixes, empty segments, queries, fragments.
    static let plainTargets = [
        "/1/2/3.png", "/1/2/3@2x.png", "/world/0/0/0.png", "/a-b_c9/10/1000/5@2x.png", "/sat/1/2/3.jpeg",
        "/roads/1/2/3.mvt", "/1/-3/2.png", "/world/1/-2/3.png", "/1/x/3.png", "/1/2/ab@2x.png",
        "/1/2/12345678901@2x.png", "/-1/0/0.png", "/1/2/.png", "/0/0/0.gif", "/0/0/0.PNG", "/0/0/0",
        "/a/1/2.png", "/World/1/2/3.png", "/1/2/3/4/5.png", "/0/0/0/0.png", "/admin/1/2/3.png", "/wmts/1/2/3.png",
        "/assets/1/2/3.png", "/static/1/2/3.png", "/camera/1/2/3.png", "/ogc/1/2/3.png", "/1//2/3.png",
        "//1/2/3.png", "/1/2/3.png/", "/world/1/2/3.png?v=2#x", "/1/2/3.png#frag", "/", "/healthz", "/world.json",
        "/1/2/3.png?a=/b/c", "/1/2/3.png#a?b", "/1/2/3.png?", "/world/1/2/3.png/", "/12345678901/0/0.png",
        "/1/-12345678901/0.png", "/1/-/3.png", "/1/2/3@3x.png", "/healthz/1/2/3.png",
    ]

    /// A plain target's tile path is read in place from its bytes; every path routes as its
    /// segments do.
    @Test(arguments: plainTargets)
    func plainTargetsRouteAsTheirSegments(_ target: String) throws {
        let request = try HTTPRequest(method: .get, target: target)
        #expect(request.plainTarget == target)
        #expect(Router.match(request) == Router.match(request.pathSegments))
    }

    /// The in-place read takes the tile paths' shapes (refusals of their coordinates too) and
    /// leaves every other path to the segments.
    @Test func plainTilePathsAreReadInPlace() throws {
        func readInPlace(_ target: String) throws -> RouteMatch? {
            var plain = try #require(try HTTPRequest(method: .get, target: target).plainTarget)
            return plain.withUTF8 { Router.plainTile($0) }
        }
        #expect(try readInPlace("/world/1/-2/3@2x.webp?v=1")
            == .route(.tile(TileRoute(layer: "world", z: 1, x: -2, y: 3, scale: 2, format: .webp))))
        #expect(try readInPlace("/7/12/34.png") == .route(.tile(TileRoute(layer: nil, z: 7, x: 12, y: 34, scale: 1, format: .png))))
        #expect(try readInPlace("/1/x/3.png") == .badRequest("x \"x\" is not a number"))
        #expect(try readInPlace("/1/2/12345678901.png") == .notFound("y 12345678901 is out of range"))
        #expect(try readInPlace("/1/2/3.png?a=/b/c") == .route(.tile(TileRoute(layer: nil, z: 1, x: 2, y: 3, scale: 1, format: .png))))
        #expect(try readInPlace("/healthz/1/2/3.png")
            == .route(.tile(TileRoute(layer: "healthz", z: 1, x: 2, y: 3, scale: 1, format: .png))))
        #expect(try readInPlace("/12345678901/0/0.png") == .notFound("z 12345678901 is out of range"))
        #expect(try readInPlace("/1/-/3.png") == .badRequest("x \"-\" is not a number"))
        for other in ["/", "/healthz", "/a/1/2.png", "/World/1/2/3.png", "/1/2/3/4/5.png", "/admin/1/2/3.png",
                      "/wmts/1/2/3.png", "/assets/1/2/3.png", "/ogc/1/2/3.png", "/static/1/2/3.png", "/camera/1/2/3.png",
                      "/1//2/3.png", "/1/2/3.png/", "/world/1/2/3.png/"] {
            #expect(try readInPlace(other) == nil, "\(other)")
        }
    }

    /// A path under a named prefix is never a layer's tile path: the prefixes are the ones the
    /// routes have, each a name the configuration refuses for a layer, and their paths go to
    /// their own parsers, not to a tile.
    @Test func namedPrefixesAreReservedAndNotTiles() {
        #expect(Set(Router.namedPrefixes) == ["admin", "assets", "camera", "ogc", "static", "wmts"])
        for prefix in Router.namedPrefixes {
            #expect(LayerSettings.reservedNames.contains(prefix), "\(prefix)")
            #expect(LayerSettings.isValidName(prefix), "\(prefix)")
            if case .route(.tile) = Router.match([prefix, "1", "2", "3.png"]) { Issue.record("\(prefix) routed as a tile") }
        }
    }

    /// Every name a layer may not take routes the same read in place as from its segments, so a
    /// route prefix the in-place read does not know of cannot be taken for a layer's tile path.
    @Test(arguments: LayerSettings.reservedNames.sorted())
    func reservedNamesRouteAsTheirSegments(_ name: String) throws {
        let request = try HTTPRequest(method: .get, target: "/\(name)/1/2/3.png")
        #expect(Router.match(request) == Router.match(request.pathSegments))
    }
}
