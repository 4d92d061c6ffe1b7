import Testing
import TileGeometry

@Suite("Visible ground and the tiles a view needs")
struct ViewTilesTests {
    @Test("zoom 0 in a 256-point view: the whole world, one tile")
    func wholeWorld() {
        let view = ViewTiles(camera: Camera(latitude: 0, longitude: 0, zoom: 0), viewport: Viewport(width: 256, height: 256))
        #expect(view.tiles(atZoom: 0) == [TileCoordinate(z: 0, x: 0, y: 0)])
        let bounds = view.bounds, world = WebMercator.worldBounds
        #expect(bounds.west == world.west && bounds.east == world.east)
        #expect(isClose(bounds.north, world.north, 1e-8) && isClose(bounds.south, world.south, 1e-8))
    }

    @Test("zoom 2 in a 1024-point view: the sixteen tiles, row by row")
    func zoomTwo() {
        let view = ViewTiles(camera: Camera(latitude: 0, longitude: 0, zoom: 2), viewport: Viewport(width: 1024, height: 1024))
        let expected = (0..<4).flatMap { y in (0..<4).map { x in TileCoordinate(z: 2, x: x, y: y) } }
        #expect(view.tiles(atZoom: 2) == expected)
        #expect(view.tiles(atZoom: 1).count == 4)
    }

    @Test("x wraps across the antimeridian; bounds cross it with west > east")
    func antimeridian() {
        let view = ViewTiles(camera: Camera(latitude: 0, longitude: 180, zoom: 2), viewport: Viewport(width: 512, height: 256))
        #expect(view.tiles(atZoom: 2) == [TileCoordinate(z: 2, x: 3, y: 1), TileCoordinate(z: 2, x: 0, y: 1),
                                          TileCoordinate(z: 2, x: 3, y: 2), TileCoordinate(z: 2, x: 0, y: 2)])
        let bounds = view.bounds
        #expect(isClose(bounds.west, 90, 1e-9) && isClose(bounds.east, -90, 1e-9))
        #expect(bounds.crossesAntimeridian)
        #expect(isClose(bounds.north, -bounds.south, 1e-9))
    }

    @Test("a view wider than the world lists each column once")
    func widerThanWorld() {
        let view = ViewTiles(camera: Camera(latitude: 0, longitude: 30, zoom: 1), viewport: Viewport(width: 1500, height: 200))
        let tiles = view.tiles(atZoom: 1)
        #expect(Set(tiles).count == tiles.count)
        #expect(Set(tiles.map(\.x)) == [0, 1])
        #expect(view.bounds.west == -180 && view.bounds.east == 180)
    }

    @Test("tile zoom: floor of the camera zoom, clamped to the layer's levels", arguments: [
        (6.2, 0, 30, 6), (5.9999999999, 0, 30, 6), (5.99, 0, 30, 5), (4, 10, 15, 10), (17.5, 10, 15, 15), (0.5, 0, 3, 0),
    ])
    func tileZoom(zoom: Double, minZoom: Int, maxZoom: Int, expected: Int) {
        #expect(ViewTiles.tileZoom(forZoom: zoom, limits: CameraLimits(minZoom: minZoom, maxZoom: maxZoom)) == expected)
    }

    @Test("the spec's /static example: zoom 6.2 over British Columbia uses zoom-6 tiles such as 6/9/21")
    func specExample() {
        let camera = Camera(latitude: 49.9, longitude: -118.6, zoom: 6.2)
        let view = ViewTiles(camera: camera, viewport: Viewport(width: 800, height: 600))
        let tiles = view.tiles(atZoom: ViewTiles.tileZoom(forZoom: camera.zoom))
        #expect(tiles.contains(TileCoordinate(z: 6, x: 9, y: 21)))
        #expect(tiles.allSatisfy { $0.z == 6 })
        let bounds = view.bounds
        #expect(bounds.west < -118.6 && bounds.east > -118.6 && bounds.south < 49.9 && bounds.north > 49.9)
    }

    @Test("tilt extends the set with farther tiles")
    func tiltExtends() {
        let viewport = Viewport(width: 800, height: 600)
        let flat = ViewTiles(camera: Camera(target: calgary, zoom: 16), viewport: viewport).tiles(atZoom: 16)
        let tilted = ViewTiles(camera: Camera(target: calgary, zoom: 16, tilt: 65), viewport: viewport).tiles(atZoom: 16)
        #expect(tilted.count > flat.count)
        let under = tile(containing: MercatorPoint(calgary), zoom: 16)
        #expect(flat.contains(under) && tilted.contains(under))
    }

    /// The tile of zoom `z` holding `point`.
    func tile(containing point: MercatorPoint, zoom z: Int) -> TileCoordinate {
        let side = Double(TileCoordinate.tilesPerSide(atZoom: z))
        return TileCoordinate(z: z, x: Int((point.x * side).rounded(.down)), y: Int((point.y * side).rounded(.down))).normalized()!
    }

    @Test("every drawn pixel's tile is in the set", arguments: [
        Camera(target: calgary, zoom: 16.3, bearing: 33, tilt: 65),
        Camera(target: vancouver, zoom: 12.7, bearing: 300, tilt: 45),
        Camera(latitude: 10, longitude: 179.9, zoom: 9, bearing: 80, tilt: 30),
        Camera(latitude: 80, longitude: 0, zoom: 3, bearing: 10),
    ])
    func coverage(camera: Camera) {
        let viewport = Viewport(width: 640, height: 480, padding: EdgeInsets(bottom: 120))
        let projection = ViewProjection(camera: camera, viewport: viewport)
        let z = ViewTiles.tileZoom(forZoom: camera.zoom)
        let tiles = Set(ViewTiles(projection: projection).tiles(atZoom: z))
        let bounds = ViewTiles(projection: projection).bounds
        for point in screenGrid(viewport, steps: 40) where point.y >= projection.groundTopY {
            let mercator = projection.screenToMercator(point)!
            guard mercator.y >= 0, mercator.y < 1 else { continue }
            #expect(tiles.contains(tile(containing: mercator, zoom: z)), "\(point)")
            let ground = projection.screenToGround(point)!
            var box = bounds
            box.west -= 1e-9; box.east += 1e-9; box.south -= 1e-9; box.north += 1e-9
            #expect(box.contains(ground), "\(ground) outside \(bounds)")
        }
    }

    @Test("no ground in the view: no tiles, bounds of zero size at the target")
    func emptyView() {
        let viewport = Viewport(width: 800, height: 800, padding: EdgeInsets(top: 3000))
        let camera = Camera(target: calgary, zoom: 18, tilt: 65)
        let view = ViewTiles(camera: camera, viewport: viewport)
        #expect(view.corners.isEmpty && view.tiles(atZoom: 18).isEmpty)
        #expect(isClose(view.bounds.west, calgary.longitude, 1e-9) && view.bounds.west == view.bounds.east)
    }
}
