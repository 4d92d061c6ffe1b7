import Foundation
import Hashing
import Testing
import TileGeometry
import TileHTTP
import TilePNG
@testable import TileServer

/// The PNG of `/static`: drawn from the layer's tiles, exactly where the view is axis-aligned.
@Suite(.timeLimit(.minutes(2))) struct StaticRenderTests {
    let folder = TemporaryFolder()

    @Test func integerZoomAtBearingZeroIsTheTileMosaic() async throws {
        let service = try StaticFixtures.service(folder: folder)
        // lon 0, lat 0 is the corner of tiles (1,1), (2,1), (1,2), (2,2) at zoom 2.
        let response = try await service.fetch("/static/world/0,0,2/512x512.png")
        #expect(response.status == .ok)
        let image = try StaticFixtures.decode(response.body)
        #expect(image == (try StaticFixtures.mosaic(z: 2, x: 1, y: 1)))
    }

    @Test func retinaViewIsDrawnFromRetinaTiles() async throws {
        let service = try StaticFixtures.service(folder: folder)
        // @2x tiles of zoom 2 are made of zoom-3 tiles, so the view is the zoom-3 mosaic.
        let image = try StaticFixtures.decode(try await service.fetch("/static/world/0,0,2/256x256@2x.png").body)
        #expect(image.width == 512 && image.height == 512)
        #expect(image == (try StaticFixtures.mosaic(z: 3, x: 3, y: 3)))
    }

    @Test func bearing90IsTheMosaicTurnedCounterClockwise() async throws {
        let service = try StaticFixtures.service(folder: folder)
        let image = try StaticFixtures.decode(try await service.fetch("/static/world/0,0,2,90/512x512.png").body)
        #expect(image == StaticFixtures.rotatedCounterClockwise(try StaticFixtures.mosaic(z: 2, x: 1, y: 1)))
    }

    @Test func beyondTheMercatorSquareIsTransparentAndXWraps() async throws {
        let service = try StaticFixtures.service(folder: folder)
        // Zoom 0 at 600 × 400: the 256-pixel world repeats across, with nothing above and below it.
        let image = try StaticFixtures.decode(try await service.fetch("/static/world/180,0,0/600x400.png").body)
        #expect(image.pixel(x: 300, y: 10)!.alpha == 0)
        #expect(image.pixel(x: 300, y: 390)!.alpha == 0)
        #expect(image.pixel(x: 5, y: 200)!.alpha == 255)
        #expect(image.pixel(x: 595, y: 200)!.alpha == 255)
        // Centred on the antimeridian: the column right of the centre is the world's west edge.
        let world = try StaticFixtures.worldImage(0, 0, 0)
        #expect(image.pixel(x: 300, y: 200) == world.pixel(x: 0, y: 128))
        #expect(image.pixel(x: 299, y: 200) == world.pixel(x: 255, y: 128))
    }

    @Test(arguments: ["/static/world/0,0,2/512x512.png", "/static/world/-30.5,20.25,2.6,33,20/700x500.png",
                      "/static/world/175,-10,1.4,200,30/640x480@2x.png", "/static/world/auto/300x200.png?bounds=170,-20,-170,10"])
    func theTileListIsWhatThePNGIsDrawnFrom(_ path: String) async throws {
        let service = try StaticFixtures.service(folder: folder)
        let view = try StaticFixtures.view(path, service: service)
        let layer = service.state.layers["world"]!
        guard case .success(.image(_, let tiles, let sampled)) =
                await StaticRenderer(pipeline: service.pipeline).render(view, layer: layer, variables: [:]) else {
            throw StaticTestError.notRendered
        }
        #expect(tiles == view.tiles)
        #expect(sampled == Set(tiles))
        let jsonPath = path.replacingOccurrences(of: ".png", with: ".json")
        let json = try await service.fetch(jsonPath)
        #expect(try StaticFixtures.tiles(json) == tiles)
    }

    @Test func answerHeadersAndConditionalRequests() async throws {
        let service = try StaticFixtures.service(folder: folder)
        let response = try await service.fetch("/static/world/10,20,1.5,45/300x200.png")
        #expect(response.headers[.contentType] == "image/png")
        #expect(response.headers[.cacheControl] == "public, max-age=86400")
        #expect(response.headers[.accessControlAllowOrigin] == "*")
        let etag = try #require(response.headers[.eTag])
        #expect(etag == ContentHash.etag(of: response.body))
        let again = try await service.fetch("/static/world/10,20,1.5,45/300x200.png", headers: [.ifNoneMatch: etag])
        #expect(again.status == .notModified)
        let json = try await service.fetch("/static/world/10,20,1.5,45/300x200.json")
        #expect(json.headers[.contentType] == "application/json")
        #expect(json.headers[.eTag] == ContentHash.etag(of: json.body))
    }

    @Test func missingTilesAreTransparent() async throws {
        let tiles = TemporaryFolder()
        tiles.write("1/0/0.png", Fixtures.worldTile(1, 0, 0))
        let service = try Fixtures.service(extraYAML: """
          - name: sparse
            source: {type: directory, path: \(tiles.path)}
            minZoom: 1
            maxZoom: 1
        """, folder: folder)
        // The four zoom-1 tiles; only the north-west one exists.
        let response = try await service.fetch("/static/sparse/0,0,1/512x512.png")
        #expect(response.status == .ok)
        let image = try StaticFixtures.decode(response.body)
        #expect(image.pixel(x: 100, y: 100) == (try StaticFixtures.worldImage(1, 0, 0)).pixel(x: 100, y: 100))
        #expect(image.pixel(x: 400, y: 100)!.alpha == 0)
        #expect(image.pixel(x: 400, y: 400)!.alpha == 0)
    }

    @Test func aBrokenTileIsABadGateway() async throws {
        let tiles = TemporaryFolder()
        tiles.write("1/0/0.png", Fixtures.worldTile(1, 0, 0))
        tiles.write("1/1/0.png", Array("not a png".utf8))
        let service = try Fixtures.service(extraYAML: """
          - name: broken
            source: {type: directory, path: \(tiles.path)}
            minZoom: 1
            maxZoom: 1
        """, folder: folder)
        let response = try await service.fetch("/static/broken/0,0,1/512x512.png")
        #expect(response.status == .badGateway)
        #expect(String(decoding: response.body, as: UTF8.self).contains("broken/1/1/0"))
        // The description does not read the tiles, so it is still answered.
        #expect(try await service.fetch("/static/broken/0,0,1/512x512.json").status == .ok)
    }
}
