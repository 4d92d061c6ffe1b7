import TileHTTP
import TileProviders

extension TileService {
    /// The answer to a tile request.
    func tileResponse(_ request: HTTPRequest, _ route: TileRoute) -> HTTPResponse {
        guard let layer = route.layer.map({ state.layers[$0] }) ?? state.layers.defaultLayer else {
            return route.layer.map { errorResponse(.notFound, "unknown layer \"\($0)\"") }
                ?? errorResponse(.notFound, "no default layer is configured; use /{layer}/{z}/{x}/{y}.png")
        }
        guard let tile = layer.tileCoordinate(z: route.z, x: route.x, y: route.y) else {
            if route.z < layer.minZoom || route.z > layer.maxZoom {
                return errorResponse(.notFound, "zoom \(route.z) is outside layer \"\(layer.name)\"'s range \(layer.minZoom)-\(layer.maxZoom)")
            }
            return errorResponse(.notFound, "y \(route.y) is outside 0-\((1 << route.z) - 1) at zoom \(route.z)")
        }
        if route.scale == 2 {
            return errorResponse(.notImplemented, "@2x tiles are not served yet")
        }
        let result: TileResult
        do {
            result = try layer.provider.tileFor(x: tile.x, y: tile.y, zoom: tile.z)
        } catch {
            return providerFailure(error, layer: layer, tile: "\(tile)")
        }
        switch result {
        case .tile(let found):
            guard PNGSignature.matches(found.data) else {
                return providerFailure(.notPNG(source: "tile \(tile)"), layer: layer, tile: "\(tile)")
            }
            return tileAnswer(request, body: found.data, etag: ContentHash.etag(of: found.data),
                              lastModified: found.lastModified, layer: layer)
        case .noTile:
            return noTileAnswer(request, layer: layer, scale: route.scale)
        case .unavailable(let retryAfter):
            return errorResponse(.serviceUnavailable, "tile \(tile) of layer \"\(layer.name)\" is not available now; retry later",
                                 extra: [(.retryAfter, String(retryAfter)), (.cacheControl, "no-store")])
        }
    }

    /// 200 with the tile, or 304 when the client's copy matches.
    func tileAnswer(_ request: HTTPRequest, body: [UInt8], etag: String, lastModified: Int?, layer: Layer) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(.contentType, "image/png")
        headers.add(.eTag, etag)
        if let lastModified { headers.add(.lastModified, HTTPDate.format(secondsSince1970: lastModified)) }
        headers.add(.cacheControl, "public, max-age=\(layer.settings.maxAge)")
        addCORS(to: &headers)
        if HTTPConditional.isNotModified(request.headers, etag: etag, lastModified: lastModified) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return HTTPResponse(status: .ok, headers: headers, body: body)
    }

    /// The layer's "no tile" answer: 404, 204 or a transparent tile, all cacheable.
    func noTileAnswer(_ request: HTTPRequest, layer: Layer, scale: Int) -> HTTPResponse {
        let caching = "public, max-age=\(layer.settings.maxAge)"
        switch layer.settings.emptyTile {
        case .notFound:
            return errorResponse(.notFound, "no tile here", extra: [(.cacheControl, caching)])
        case .noContent:
            var headers: HTTPHeaders = [.cacheControl: caching]
            addCORS(to: &headers)
            return HTTPResponse(status: .noContent, headers: headers)
        case .transparent:
            let body = TransparentTile.png(scale: scale)
            return tileAnswer(request, body: body, etag: ContentHash.etag(of: body), lastModified: nil, layer: layer)
        }
    }

    /// The one place a provider error becomes an answer: logged once, then 502 or 500.
    func providerFailure(_ error: TileProviderError, layer: Layer, tile: String) -> HTTPResponse {
        logger.error("tile source failed", metadata: ["layer": "\(layer.name)", "tile": "\(tile)", "error": "\(error)"])
        switch error {
        case .notPNG:
            return errorResponse(.badGateway, "the source of layer \"\(layer.name)\" gave bytes that are not a PNG for tile \(tile)")
        default:  // unreadable files, broken databases, misconfiguration: the operator reads the log
            return errorResponse(.internalServerError, "the source of layer \"\(layer.name)\" failed for tile \(tile); see the server log")
        }
    }
}
