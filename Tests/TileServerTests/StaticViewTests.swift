import Foundation
import Testing
import TileGeometry
import TileHTTP
@testable import TileServer

/// The `.json` of `/static`: the camera after every clamp, the visible ground, padding, fit-bounds.
@Suite struct StaticViewTests {
    let folder = TemporaryFolder()

    @Test func jsonHasTheSpecShapeInOrder() async throws {
        let service = try StaticFixtures.service(folder: folder)
        let text = String(decoding: try await service.get("/static/world/-118.6,49.9,3/800x600.json").body, as: UTF8.self)
        #expect(text.hasPrefix("""
            {"camera":{"target":{"lat":49.9,"lon":-118.6},"zoom":3,"bearing":0,"tilt":0},\
            "size":{"width":800,"height":600,"scale":1},"padding":{"top":0,"right":0,"bottom":0,"left":0},"bounds":[
            """))
        #expect(text.contains("],\"tiles\":[{\"z\":3,\"x\":"))
        #expect(text.hasSuffix("}]}"))
    }

    @Test func theCameraIsClampedAsTheCameraLibraryDoes() async throws {
        let service = try StaticFixtures.service(folder: folder)
        // lon 480 wraps to 120, lat 100 is the Mercator edge, zoom 9 is above world's 3,
        // bearing -90 is 270, tilt 50 is above the 30° allowed at zoom 3.
        let camera = try StaticFixtures.camera(try await service.get("/static/world/480,100,9,-90,50/400x300.json"))
        #expect(camera.target.longitude == 120)
        #expect(camera.target.latitude == WebMercator.maxLatitude)
        #expect(camera.zoom == 3)
        #expect(camera.bearing == 270)
        #expect(camera.tilt == 30)
        // Zoom clamped up first, so the tilt limit is the one of the zoom drawn (65° at 16+).
        let high = try StaticFixtures.camera(try await service.get("/static/debug/0,0,30,0,60/400x300.json"))
        #expect(high.zoom == 22 && high.tilt == 60)
    }

    @Test func targetBoundsClampTheTarget() async throws {
        let service = try Fixtures.service(extraYAML: """
          - name: europe
            source: {type: debug}
            maxZoom: 12
            targetBounds: [-10, 35, 30, 60]
        """, folder: folder)
        let camera = try StaticFixtures.camera(try await service.get("/static/europe/-74,40.7,5/400x300.json"))
        #expect(camera.target.longitude == -10)
        #expect(camera.target.latitude == 40.7)
    }

    @Test func aTiltedViewKeepsTheTargetAtTheCentreAndSeesFurtherNorth() async throws {
        let service = try StaticFixtures.service(folder: folder)
        let flat = try await service.get("/static/debug/10,45,8/800x600.json")
        let tilted = try await service.get("/static/debug/10,45,8,0,30/800x600.json")
        let camera = try StaticFixtures.camera(tilted)
        #expect(camera.tilt == 30)
        let viewport = Viewport(width: 800, height: 600)
        let centre = try #require(ViewProjection(camera: camera, viewport: viewport).groundToScreen(camera.target))
        #expect(abs(centre.x - 400) < 1e-6 && abs(centre.y - 300) < 1e-6)
        let flatBounds = try StaticFixtures.bounds(flat), tiltedBounds = try StaticFixtures.bounds(tilted)
        #expect(tiltedBounds[3] > flatBounds[3] + 0.2)  // north reaches further (≈0.49° here)
        #expect(tiltedBounds[1] > flatBounds[1])  // the near (south) edge comes closer
        #expect(try StaticFixtures.tiles(tilted).count > StaticFixtures.tiles(flat).count)
    }

    @Test func autoFitsVancouverAndCalgary() async throws {
        let service = try StaticFixtures.service(folder: folder)
        let vancouver = Coordinate(latitude: 49.26, longitude: -123.11)
        let calgary = Coordinate(latitude: 51.05, longitude: -114.05)
        for (query, inset) in [("", 0.0), ("&padding=50", 50.0)] {
            let response = try await service.get("/static/debug/auto/800x600.json?bounds=-123.11,49.26,-114.05,51.05" + query)
            #expect(response.status == .ok)
            let camera = try StaticFixtures.camera(response)
            #expect(camera.bearing == 0 && camera.tilt == 0)
            #expect(camera.zoom > 5 && camera.zoom < 7)
            let projection = ViewProjection(camera: camera, viewport: Viewport(width: 800, height: 600,
                                                                               padding: EdgeInsets(all: inset)))
            let west = try #require(projection.groundToScreen(vancouver)), east = try #require(projection.groundToScreen(calgary))
            for point in [west, east] {
                #expect(point.x >= inset - 1e-6 && point.x <= 800 - inset + 1e-6)
                #expect(point.y >= inset - 1e-6 && point.y <= 600 - inset + 1e-6)
            }
            // As large as possible: the box spans the room across (it is wider than tall).
            #expect(abs((east.x - west.x) - (800 - 2 * inset)) < 1e-6)
        }
    }

    @Test func bottomPaddingMovesTheTargetUp() async throws {
        let service = try StaticFixtures.service(folder: folder)
        let response = try await service.get("/static/debug/-118.6,49.9,6/600x800.json?padding=0,0,300,0")
        let padding = try #require(try StaticFixtures.object(response)["padding"] as? [String: NSNumber])
        #expect(padding.mapValues(\.doubleValue) == ["top": 0, "right": 0, "bottom": 300, "left": 0])
        let camera = try StaticFixtures.camera(response)
        let viewport = Viewport(width: 600, height: 800, padding: EdgeInsets(bottom: 300))
        let target = try #require(ViewProjection(camera: camera, viewport: viewport).groundToScreen(camera.target))
        #expect(abs(target.y - 250) < 1e-9)  // 150 points above the middle
        #expect(abs(target.x - 300) < 1e-9)
        // The view shows more ground below the target than above it.
        let bounds = try StaticFixtures.bounds(response)
        #expect(49.9 - bounds[1] > bounds[3] - 49.9)
    }

    @Test func onePaddingValueIsEveryEdge() async throws {
        let service = try StaticFixtures.service(folder: folder)
        let object = try StaticFixtures.object(try await service.get("/static/world/0,0,1/400x300.json?padding=20"))
        let padding = try #require(object["padding"] as? [String: NSNumber])
        #expect(padding.mapValues(\.doubleValue) == ["top": 20, "right": 20, "bottom": 20, "left": 20])
    }
}
