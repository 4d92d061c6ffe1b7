import Foundation
import TileGeometry
import TileHTTP
import TilePNG
@testable import TileServer

/// Helpers shared by the `/static` tests: decoded images, the shipped tiles as a mosaic, JSON answers.
enum StaticFixtures {
    /// A service over the shipped world layer (zoom 0-3) and a debug layer (zoom 0-22) for views
    /// that need more zoom than the world pyramid has.
    static func service(folder: TemporaryFolder) throws -> TileService {
        try Fixtures.service(extraYAML: """
          - name: debug
            source: {type: debug}
            maxZoom: 22
            maxAge: 3600
        """, folder: folder)
    }

    static func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        try PNGDecoder.decode(bytes)
    }

    /// A shipped world tile, decoded.
    static func worldImage(_ z: Int, _ x: Int, _ y: Int) throws -> RGBAImage {
        try decode(Fixtures.worldTile(z, x, y))
    }

    /// Four shipped tiles of zoom `z` side by side, (x, y) at the top-left.
    static func mosaic(z: Int, x: Int, y: Int) throws -> RGBAImage {
        try RGBAImage.mosaic2x2(nw: worldImage(z, x, y), ne: worldImage(z, x + 1, y),
                                sw: worldImage(z, x, y + 1), se: worldImage(z, x + 1, y + 1))
    }

    /// `image` turned a quarter counter-clockwise: what a view at bearing 90 shows (east is up).
    static func rotatedCounterClockwise(_ image: RGBAImage) -> RGBAImage {
        var turned = RGBAImage(width: image.height, height: image.width)
        for y in 0..<turned.height {
            for x in 0..<turned.width {
                turned.setPixel(x: x, y: y, to: image.pixel(x: image.width - 1 - y, y: x)!)
            }
        }
        return turned
    }

    /// The body of a JSON answer as an object.
    static func object(_ response: HTTPResponse) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(response.body)) as! [String: Any]
    }

    /// The `camera` of a `/static … .json` answer, decoded with the camera library's own Codable.
    static func camera(_ response: HTTPResponse) throws -> Camera {
        let camera = try object(response)["camera"]!
        return try JSONDecoder().decode(Camera.self, from: JSONSerialization.data(withJSONObject: camera))
    }

    /// `[w, s, e, n]` of a `/static … .json` answer.
    static func bounds(_ response: HTTPResponse) throws -> [Double] {
        (try object(response)["bounds"] as! [NSNumber]).map(\.doubleValue)
    }

    /// `tiles` of a `/static … .json` answer.
    static func tiles(_ response: HTTPResponse) throws -> [TileCoordinate] {
        (try object(response)["tiles"] as! [[String: NSNumber]]).map {
            TileCoordinate(z: $0["z"]!.intValue, x: $0["x"]!.intValue, y: $0["y"]!.intValue)
        }
    }

    /// The view `path` names (its query included), resolved as the service resolves it.
    static func view(_ path: String, service: TileService) throws -> StaticView {
        let request = try HTTPRequest(method: .get, target: path)
        guard case .route(.staticMap(let route)) = Router.match(request.pathSegments) else {
            throw StaticTestError.notAStaticRoute(path)
        }
        return try StaticView(route: route, query: StaticQuery(request.queryItems), layer: service.state.layers[route.layer]!)
    }
}

enum StaticTestError: Error {
    case notAStaticRoute(String)
    case notRendered
}

extension TileService {
    /// A GET awaited without blocking a thread (see `get`).
    func fetch(_ target: String, headers: HTTPHeaders = HTTPHeaders()) async throws -> HTTPResponse {
        try await get(target, headers: headers)
    }
}
