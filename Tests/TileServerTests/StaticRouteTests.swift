import Foundation
import Testing
import TileHTTP
@testable import TileServer

/// `/static` paths and queries: what is accepted, and the 400/404 answers that say what is wrong.
@Suite struct StaticRouteTests {
    let folder = TemporaryFolder()

    @Test func parsesCameraSizeScaleAndFormat() {
        #expect(Router.match(["static", "world", "-123.1,49.2,5.5", "800x600.png"]) == .route(.staticMap(StaticRoute(
            layer: "world", camera: .explicit(longitude: -123.1, latitude: 49.2, zoom: 5.5, bearing: 0, tilt: 0),
            width: 800, height: 600))))
        #expect(Router.match(["static", "a-b", "1,2,3,45,20.5", "1024x1@2x.json"]) == .route(.staticMap(StaticRoute(
            layer: "a-b", camera: .explicit(longitude: 1, latitude: 2, zoom: 3, bearing: 45, tilt: 20.5),
            width: 1024, height: 1, scale: 2, format: .json))))
        #expect(Router.match(["static", "world", "auto", "2048x2048.png"]) == .route(.staticMap(StaticRoute(
            layer: "world", camera: .auto, width: 2048, height: 2048))))
    }

    @Test(arguments: [
        ("/static/world/0,0,1/0x100.png", "width 0 is outside 1-2048"),
        ("/static/world/0,0,1/100x2049.png", "height 2049 is outside 1-2048"),
        ("/static/world/0,0,1/1025x10@2x.png", "width 1025 is outside 1-1024"),
        ("/static/world/0,0,1/99999999999x10.png", "is outside 1-2048"),
        ("/static/world/0,0,1/axb.png", "width \"a\" is not a number"),
        ("/static/world/0,0,1/100.png", "must be {width}x{height}"),
        ("/static/world/0,0,abc/100x100.png", "zoom \"abc\" is not a number"),
        ("/static/world/0,x,1/100x100.json", "lat \"x\" is not a number"),
        ("/static/world/0,0,1,nan/100x100.png", "bearing \"nan\" is not a number"),
        ("/static/world/0,0,1,1e999/100x100.png", "bearing must be finite"),
        ("/static/world/0,0,1,0,0x10/100x100.png", "tilt \"0x10\" is not a number"),
        ("/static/world/0,0/100x100.png", "must be {lon},{lat},{zoom}"),
        ("/static/world/0,0,1,2,3,4/100x100.png", "must be {lon},{lat},{zoom}"),
        ("/static/world/0,0,1/100x100.png?padding=a", "padding top \"a\" is not a number"),
        ("/static/world/0,0,1/100x100.png?padding=1,2", "padding \"1,2\" must be one number"),
        ("/static/world/0,0,1/100x100.png?padding=-5", "must not be negative"),
        ("/static/world/0,0,1/100x100.png?padding=50", "padding leaves no room"),
        ("/static/world/0,0,1/300x100.png?padding=50,0,50,0", "padding leaves no room"),
        ("/static/world/auto/100x100.png", "needs ?bounds="),
        ("/static/world/auto/100x100.png?bounds=1,2,3", "bounds \"1,2,3\" must be {west},{south},{east},{north}"),
        ("/static/world/auto/100x100.png?bounds=1,2,x,4", "east \"x\" is not a number"),
        ("/static/world/auto/100x100.png?bounds=0,50,10,40", "south 50.0 is north of north 40.0"),
        ("/static/world/auto/100x100.png?bounds=0,-91,10,40", "south -91.0 is outside -90…90"),
        ("/static/world/auto/100x100.png?bounds=-181,0,10,40", "west -181.0 is outside -180…180"),
    ])
    func badValuesAre400(_ path: String, _ reason: String) async throws {
        let response = try await Fixtures.service(folder: folder).get(path)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(response.status == .badRequest, "\(path): \(text)")
        #expect(text.contains(reason), "\(path): \(text)")
        #expect(response.headers[.accessControlAllowOrigin] == "*")
    }

    @Test(arguments: ["/static/nope/0,0,1/100x100.png", "/static/nope/auto/100x100.json?bounds=0,0,1,1",
                      "/static/world/0,0,1/100x100.jpg", "/static/world/0,0,1", "/static/World/0,0,1/10x10.png",
                      "/static/world/0,0,1/10x10.png/more"])
    func unknownLayersAndPathsAre404(_ path: String) async throws {
        let response = try await Fixtures.service(folder: folder).get(path)
        #expect(response.status == .notFound, "\(path)")
    }

    @Test func boundsCrossingTheAntimeridianAndLayerVariablesAreAccepted() async throws {
        let service = try Fixtures.service(folder: folder)
        #expect(try await service.get("/static/world/auto/100x100.json?bounds=170,-10,-170,10").status == .ok)
        // Cache-busting parameters pass on a layer without variables, as for tiles.
        #expect(try await service.get("/static/world/0,0,1/100x100.json?v=3&padding=1,2,3,4").status == .ok)
    }
}
