import Foundation
import Testing
import TileGeometry
import TileHTTP
@testable import TileServer

/// `/camera` through the service as a function, checked against `IndependentMercator` (not the camera
/// library) and the camera documents' own examples.
@Suite struct CameraAPITests {
    let folder = TemporaryFolder()
    typealias M = IndependentMercator

    /// The JSON object of a 200 answer to `path` on the debug layer's service.
    func answer(_ path: String, service: TileService? = nil) async throws -> [String: Any] {
        let service = try service ?? StaticFixtures.service(folder: folder)
        let response = try await service.get(path)
        #expect(response.status == .ok, "\(path): \(String(decoding: response.body, as: UTF8.self))")
        #expect(response.headers[.contentType] == "application/json")
        return try StaticFixtures.object(response)
    }

    func number(_ value: Any?) -> Double { (value as! NSNumber).doubleValue }
    func camera(_ object: [String: Any]) -> (lat: Double, lon: Double, zoom: Double, bearing: Double, tilt: Double) {
        let camera = object["camera"] as! [String: Any], target = camera["target"] as! [String: Any]
        return (number(target["lat"]), number(target["lon"]), number(camera["zoom"]), number(camera["bearing"]), number(camera["tilt"]))
    }
    func list(_ object: [String: Any], _ key: String) -> [[String: Any]] { object[key] as! [[String: Any]] }

    static let cities = "-123.11,49.26,-114.05,51.05"  // Vancouver (west, south) and Calgary (east, north)

    @Test("Vancouver–Calgary fitted on 800×600: no padding, 50, 64, map padding 100 + fit 64", arguments: [
        ("", 0.0, 0.0), ("&fitPadding=50", 0, 50), ("&fitPadding=64", 0, 64), ("&padding=100&fitPadding=64", 100, 64),
    ])
    func fitZooms(query: String, mapPadding: Double, fitPadding: Double) async throws {
        let object = try await answer("/camera/debug/auto/800x600.json?bounds=\(Self.cities)\(query)"
                                      + "&coordinate=-123.11,49.26&coordinate=-114.05,51.05")
        let clear = mapPadding + fitPadding
        let expected = M.fittingZoom(west: -123.11, south: 49.26, east: -114.05, north: 51.05,
                                     width: 800 - 2 * clear, height: 600 - 2 * clear)
        let view = camera(object)
        #expect(abs(view.zoom - expected) < 1e-9, "zoom \(view.zoom), expected \(expected)")
        #expect(view.bearing == 0 && view.tilt == 0)
        // Both cities inside the room, centred in it, touching it on the tighter axis.
        let cities = list(object, "coordinates").map { (x: number($0["x"]), y: number($0["y"])) }
        for city in cities {
            #expect(city.x >= clear - 1e-6 && city.x <= 800 - clear + 1e-6 && city.y >= clear - 1e-6 && city.y <= 600 - clear + 1e-6)
        }
        #expect(abs(cities[0].x - clear) < 1e-6 || abs(cities[1].y - clear) < 1e-6)
        #expect(abs((cities[0].x + cities[1].x) / 2 - 400) < 1e-6 && abs((cities[0].y + cities[1].y) / 2 - 300) < 1e-6)
        // The same positions from the independent projection of the answered target.
        let vancouver = M.screen(latitude: 49.26, longitude: -123.11, target: (view.lat, view.lon), zoom: view.zoom, anchor: (400, 300))
        #expect(abs(vancouver.x - cities[0].x) < 1e-6 && abs(vancouver.y - cities[0].y) < 1e-6)
    }

    @Test("fit: updates: the SDK's 64-point default, their own padding, or fitPadding")
    func fitUpdates() async throws {
        let zoom = { (clear: Double) in
            M.fittingZoom(west: -123.11, south: 49.26, east: -114.05, north: 51.05, width: 800 - 2 * clear, height: 600 - 2 * clear)
        }
        for (query, clear) in [("update=fit:\(Self.cities)", 64.0), ("update=fit:\(Self.cities),50", 50),
                               ("update=fit:\(Self.cities)&fitPadding=10", 10), ("update=fit:\(Self.cities),0&padding=100", 100)] {
            let view = camera(try await answer("/camera/debug/10,10,3,45,20/800x600.json?" + query))
            #expect(abs(view.zoom - zoom(clear)) < 1e-9, "\(query)")
            #expect(view.bearing == 0 && view.tilt == 0)
        }
    }

    @Test("scrollBy(200, 100) moves the target 200 points right and 100 down on screen, turned by the bearing",
          arguments: [(0.0, 200.0, 100.0), (90, -100, 200), (180, -200, -100), (270, 100, -200)])
    func scrollBy(bearing: Double, east: Double, south: Double) async throws {
        let start = (lat: 49.26, lon: -123.11, zoom: 11.0)
        let before = try await answer("/camera/debug/\(start.lon),\(start.lat),\(start.zoom),\(bearing)/800x600.json?point=600,400")
        let object = try await answer("/camera/debug/\(start.lon),\(start.lat),\(start.zoom),\(bearing)/800x600.json?update=scrollBy:200,100")
        let view = camera(object)
        let expectedLon = M.longitude(x: M.x(longitude: start.lon, zoom: 11) + east, zoom: 11)
        let expectedLat = M.latitude(y: M.y(latitude: start.lat, zoom: 11) + south, zoom: 11)
        #expect(abs(view.lon - expectedLon) < 1e-9 && abs(view.lat - expectedLat) < 1e-9)
        #expect(view.zoom == 11 && view.bearing == bearing)
        // The ground that was 200 right and 100 below the target is the new target.
        let ground = list(before, "points")[0]
        #expect(abs(number(ground["lon"]) - view.lon) < 1e-9 && abs(number(ground["lat"]) - view.lat) < 1e-9)
    }

    @Test("zoomBy at a point keeps that point's ground under it", arguments: [(0.0, 0.0), (30, 20), (200, 55)])
    func zoomByAtPoint(bearing: Double, tilt: Double) async throws {
        let path = "/camera/debug/-114.05,51.05,15,\(bearing),\(tilt)/800x600.json"
        let before = list(try await answer(path + "?point=100,500"), "points")[0]
        let (lat, lon) = (number(before["lat"]), number(before["lon"]))
        let after = try await answer(path + "?update=zoomBy:1.5@100,500&coordinate=\(lon),\(lat)&point=100,500")
        #expect(camera(after).zoom == 16.5)
        let seen = list(after, "coordinates")[0]
        #expect(abs(number(seen["x"]) - 100) < 1e-6 && abs(number(seen["y"]) - 500) < 1e-6)
        #expect(seen["visible"] as? Bool == true)
        let ground = list(after, "points")[0]
        #expect(abs(number(ground["lat"]) - lat) < 1e-9 && abs(number(ground["lon"]) - lon) < 1e-9)
        if tilt == 0 && bearing == 0 {  // flat: the independent projection agrees
            let view = camera(after)
            let flat = M.screen(latitude: lat, longitude: lon, target: (view.lat, view.lon), zoom: view.zoom, anchor: (400, 300))
            #expect(abs(flat.x - 100) < 1e-6 && abs(flat.y - 500) < 1e-6)
        }
    }

    @Test("Tokyo Station with a 2,500 m span: the largest zoom that shows 1,250 m each way")
    func tokyoStationSpan() async throws {
        let station = (lat: 35.6812, lon: 139.7671)
        let north = station.lat + M.latitudeDegrees(metres: 1250), south = station.lat - M.latitudeDegrees(metres: 1250)
        let east = station.lon + M.longitudeDegrees(metres: 1250, latitude: station.lat)
        let west = station.lon - M.longitudeDegrees(metres: 1250, latitude: station.lat)
        let object = try await answer("/camera/debug/\(station.lon),\(station.lat),3/800x600.json?span=2500,2500"
                                      + "&coordinate=\(station.lon),\(north)&coordinate=\(station.lon),\(south)"
                                      + "&coordinate=\(east),\(station.lat)&coordinate=\(west),\(station.lat)")
        let halfHeight = max(M.y(latitude: station.lat, zoom: 0) - M.y(latitude: north, zoom: 0),
                             M.y(latitude: south, zoom: 0) - M.y(latitude: station.lat, zoom: 0))
        let halfWidth = M.x(longitude: east, zoom: 0) - M.x(longitude: station.lon, zoom: 0)
        let expected = log2(min(300 / halfHeight, 400 / halfWidth))
        let view = camera(object)
        #expect(abs(view.zoom - expected) < 1e-9 && view.zoom > 14.8 && view.zoom < 15)
        #expect(abs(view.lat - station.lat) < 1e-9 && abs(view.lon - station.lon) < 1e-9)
        let edges = list(object, "coordinates")
        #expect(edges.allSatisfy { $0["visible"] as? Bool == true })
        // Height is the tighter side; the north edge is further in Mercator, so it touches the top.
        #expect(abs(number(edges[0]["y"])) < 1e-6)
        #expect(number(edges[2]["x"]) < 800 && number(edges[3]["x"]) > 0)
    }

    @Test("a 300-point bottom overlay: the target 150 points above the middle, center 150 points below it")
    func bottomOverlay() async throws {
        let target = (lat: 49.26, lon: -123.11)
        let object = try await answer("/camera/debug/\(target.lon),\(target.lat),12/800x600.json?padding=0,0,300,0"
                                      + "&coordinate=\(target.lon),\(target.lat)")
        let drawn = list(object, "coordinates")[0]
        #expect(abs(number(drawn["x"]) - 400) < 1e-6 && abs(number(drawn["y"]) - 150) < 1e-6)
        let center = object["center"] as! [String: Any]
        let expectedLat = M.latitude(y: M.y(latitude: target.lat, zoom: 12) + 150, zoom: 12)
        #expect(abs(number(center["lat"]) - expectedLat) < 1e-9 && abs(number(center["lon"]) - target.lon) < 1e-9)
        // Tilted and turned, the center is still exactly the ground at the view's middle.
        let turned = try await answer("/camera/debug/\(target.lon),\(target.lat),17,30,50/800x600.json?padding=0,0,300,0&point=400,300")
        let middle = turned["center"] as! [String: Any], probe = list(turned, "points")[0]
        #expect(number(middle["lat"]) == number(probe["lat"]) && number(middle["lon"]) == number(probe["lon"]))
        #expect(number(middle["lat"]) < target.lat)
    }

    @Test("the answer extends /static's JSON with visibleRegion, center, limits, points and coordinates")
    func shapeAndAgreementWithStatic() async throws {
        let service = try StaticFixtures.service(folder: folder)
        for query in ["?update=zoomIn&update=scrollBy:10,20", "?span=5000,8000&update=zoomBy:-1@10,10",
                      "?padding=10,20,30,40&update=setTarget:2.35,48.85,9&update=zoomOut"] {
            let still = String(decoding: try await service.get("/static/debug/10,45,8,15,20/800x600.json" + query).body, as: UTF8.self)
            let text = String(decoding: try await service.get("/camera/debug/10,45,8,15,20/800x600.json" + query).body, as: UTF8.self)
            #expect(text.hasPrefix(String(still.dropLast()) + ",\"visibleRegion\":{\"nearLeft\":{\"lat\":"), "\(query)")
            #expect(text.contains("},\"center\":{\"lat\":") && text.contains(",\"limits\":{\"minZoom\":0,\"maxZoom\":22,\"maxTilt\":"))
            #expect(text.hasSuffix(",\"points\":[],\"coordinates\":[]}"))
        }
        let auto = try await service.get("/static/debug/auto/800x600.json?bounds=\(Self.cities)&fitPadding=64")
        let fitted = try await service.get("/camera/debug/auto/800x600.json?bounds=\(Self.cities)&fitPadding=64")
        #expect(try StaticFixtures.camera(auto) == StaticFixtures.camera(fitted))
    }

    @Test("limits and the horizon: maxTilt at the zoom, null ground above the horizon, a visible region short of it")
    func limitsAndHorizon() async throws {
        let object = try await answer("/camera/debug/0,45,18,0,65/800x600.json?padding=500,0,0,0&point=400,0&point=400,599")
        let limits = object["limits"] as! [String: Any]
        #expect(number(limits["maxTilt"]) == 65 && number(limits["maxZoom"]) == 22)
        let points = list(object, "points")
        #expect(points[0]["lat"] is NSNull && points[0]["lon"] is NSNull && number(points[0]["y"]) == 0)
        #expect(number(points[1]["lat"]) < 45)
        let region = object["visibleRegion"] as! [String: [String: Any]]
        #expect(number(region["farLeft"]!["lat"]) > number(region["nearLeft"]!["lat"]))
        let world = try await answer("/camera/world/0,0,2/400x300.json")
        #expect(number((world["limits"] as! [String: Any])["maxZoom"]) == 3)
        #expect(number((world["limits"] as! [String: Any])["maxTilt"]) == 30)
    }

    @Test("bad input is a 400 naming the parameter", arguments: [
        ("?update=zoomSideways", "update 1 \"zoomSideways\": unknown update"),
        ("?update=zoomTo:abc", "update 1 \"zoomTo:abc\": zoom \"abc\" is not a number"),
        ("?update=zoomIn&update=zoomTo:nan", "update 2 \"zoomTo:nan\""),
        ("?update=zoomTo:1e999", "update 1 \"zoomTo:1e999\": zoom must be finite"),
        ("?update=scrollBy:1e308,1", "update 1 \"scrollBy:1e308,1\": scroll"),
        ("?update=scrollBy:1", "update 1 \"scrollBy:1\""),
        ("?update=zoomBy:1@900,10", "update 1 \"zoomBy:1@900,10\": point (900.0, 10.0) is outside the 800x600 view"),
        ("?update=fit:1,2,3", "update 1 \"fit:1,2,3\": fit"),
        ("?update=fit:-10,50,10,40", "update 1 \"fit:-10,50,10,40\": bounds: south"),
        ("?update=fit:-10,40,10,50,-5", "padding -5.0 must not be negative"),
        ("?update=setTarget:1", "update 1 \"setTarget:1\""),
        ("?point=801,0", "point (801.0, 0.0) is outside the 800x600 view"),
        ("?point=nan,1", "point x \"nan\" is not a number"),
        ("?coordinate=1,inf", "coordinate lat \"inf\" is not a number"),
        ("?span=0,100", "span: 0.0 metres must be above zero"),
        ("?span=abc", "span \"abc\""),
        ("?fitPadding=-1", "fitPadding -1.0 must not be negative"),
        ("?fitPadding=1,2", "fitPadding \"1,2\""),
        (String(repeating: "&update=zoomIn", count: 33).replacingOccurrences(of: "&", with: "?", options: [.anchored]),
         "more than 32 update parameters"),
    ])
    func badInput(query: String, message: String) async throws {
        let service = try StaticFixtures.service(folder: folder)
        for route in ["camera", "static"] where route == "camera" || !query.contains("point") && !query.contains("coordinate") {
            let response = try await service.get("/\(route)/debug/10,45,8/800x600.json" + query)
            #expect(response.status == .badRequest, "\(route)\(query)")
            #expect(String(decoding: response.body, as: UTF8.self).contains(message),
                    "\(String(decoding: response.body, as: UTF8.self))")
        }
    }

    @Test("paths that are not a camera answer", arguments: [
        ("/camera/debug/0,0,3/800x600.png", HTTPStatus.notFound), ("/camera/nope/0,0,3/800x600.json", .notFound),
        ("/camera/debug/0,0,abc/800x600.json", .badRequest), ("/camera/debug/auto/800x600.json", .badRequest),
        ("/camera/debug/0,0,3/0x600.json", .badRequest), ("/camera/debug", .notFound),
    ])
    func notACameraAnswer(path: String, status: HTTPStatus) async throws {
        let response = try await StaticFixtures.service(folder: folder).get(path)
        #expect(response.status == status, "\(path)")
    }

    @Test("extreme but well-formed values are clamped, never a crash or a non-finite number")
    func extremes() async throws {
        let service = try StaticFixtures.service(folder: folder)
        for query in ["update=zoomBy:1e308", "update=zoomBy:-1e308", "update=zoomTo:-1e308", "update=setTarget:1e308,-1e308,1e308",
                      "update=scrollBy:1e12,-1e12&update=scrollBy:-1e12,1e12", "span=1e-300,1e-300", "span=1e308,1e308",
                      "coordinate=1e308,1e308", "update=fit:-180,-90,180,90,1e308", "update=fit:170,-1,-170,1",
                      "update=zoomBy:30@800,600&update=zoomBy:-30@0,0", "point=0,0&point=800,600&padding=1e300,0,0,0"] {
            for route in ["camera", "static"] {
                let response = try await service.get("/\(route)/debug/10,45,8,10,20/800x600.json?" + query)
                let text = String(decoding: response.body, as: UTF8.self)
                if query.hasPrefix("point=0,0&point=800,600&padding=1e300") {
                    #expect(response.status == .badRequest)  // padding leaves no room
                    continue
                }
                #expect(response.status == .ok, "\(route)?\(query): \(text)")
                let view = try StaticFixtures.camera(response)
                let values = [view.zoom, view.tilt, view.bearing, view.target.latitude, view.target.longitude]
                #expect(values.allSatisfy { $0.isFinite }, "\(route)?\(query)")
                #expect(!text.contains("\"camera\":{\"target\":{\"lat\":null"))
            }
        }
        let auto = try await service.get("/camera/debug/auto/800x600.json?bounds=\(Self.cities)&fitPadding=1e308")
        let fitted = try StaticFixtures.camera(auto)
        #expect(auto.status == .ok && fitted.zoom == 0)
    }

    @Test("random chains of updates with extreme numbers: a 200 with finite numbers or a 400, never a crash")
    func randomUpdateChains() async throws {
        let service = try StaticFixtures.service(folder: folder)
        let numbers = ["0", "-0", "5e-324", "1e-300", "0.5", "-1", "22", "85.05112878", "90", "-90", "180", "-180",
                       "360", "1e12", "-1e12", "1e15", "1e308", "-1e308"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {  // SplitMix64: the same chains on every run
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        func n() -> String { numbers[next(numbers.count)] }
        for _ in 0..<300 {
            var items: [String] = []
            for _ in 0..<(1 + next(5)) {
                switch next(8) {
                case 0: items.append("update=zoomIn")
                case 1: items.append("update=zoomTo:\(n())")
                case 2: items.append("update=zoomBy:\(n())@\(next(801)),\(next(601))")
                case 3: items.append("update=scrollBy:\(n()),\(n())")
                case 4: items.append("update=setTarget:\(n()),\(n()),\(n())")
                case 5: items.append("update=fit:\(n()),\(n()),\(n()),\(n()),\(n())")
                case 6: items.append("span=\(n()),\(n())")
                default: items.append("point=\(next(801)),\(next(601))&coordinate=\(n()),\(n())")
                }
            }
            let path = "/camera/debug/\(n()),\(n()),\(n()),\(n()),\(n())/800x600.json?" + items.joined(separator: "&")
            let response = try await service.get(path)
            #expect(response.status == .ok || response.status == .badRequest, "\(path)")
            guard response.status == .ok else { continue }
            let view = try StaticFixtures.camera(response)
            let values = [view.zoom, view.tilt, view.bearing, view.target.latitude, view.target.longitude]
            #expect(values.allSatisfy { $0.isFinite }, "\(path)")
            #expect(!(try StaticFixtures.bounds(response)).contains { !$0.isFinite }, "\(path)")
        }
    }

    @Test("/static draws the camera its updates name: zoomIn at zoom 1 is the zoom-2 view")
    func staticPNGFollowsTheUpdates() async throws {
        let service = try StaticFixtures.service(folder: folder)
        let updated = try await service.get("/static/world/0,0,1/256x256.png?update=zoomIn")
        let direct = try await service.get("/static/world/0,0,2/256x256.png")
        #expect(updated.status == .ok && updated.body == direct.body)
        let view = try StaticFixtures.view("/static/world/0,0,1/256x256.png?update=zoomIn&update=scrollBy:64,0", service: service)
        #expect(view.camera.zoom == 2 && abs(view.camera.target.longitude - 22.5) < 1e-9)
    }
}

@Suite struct CameraRouteTests {
    @Test func cameraPathsShareTheStaticShape() {
        #expect(Router.match(["camera", "world", "-123.1,49.2,5.5,90", "800x600.json"]) == .route(.camera(StaticRoute(
            layer: "world", camera: .explicit(longitude: -123.1, latitude: 49.2, zoom: 5.5, bearing: 90, tilt: 0),
            width: 800, height: 600, format: .json))))
        #expect(Router.match(["camera", "world", "auto", "400x300@2x.json"]) == .route(.camera(StaticRoute(
            layer: "world", camera: .auto, width: 400, height: 300, scale: 2, format: .json))))
        #expect(Router.match(["camera", "world", "auto", "400x300.png"]) == .notFound("camera views are .json"))
        #expect(Router.match(["camera", "world", "1,2", "400x300.json"])
                == .badRequest("camera \"1,2\" must be {lon},{lat},{zoom}[,{bearing}[,{tilt}]] or auto"))
    }
}
