import Hashing
import Prometheus
import TileHTTP

/// The pages and documents: the front page and its assets, TileJSON, `/metrics`, `/readyz`.
struct PageEndpoint: ServiceEndpoint {
    let core: ServiceCore
    /// Files of the front page under `/assets/`, read once at start-up.
    let webAssets: WebAssets
    /// What `/metrics` shows: the service's registry, the HTTP server's request series, and
    /// the cache and descriptor gauges updated at each scrape.
    let metricsRegistry: PrometheusCollectorRegistry
    let httpMetrics: HTTPServerMetrics
    let cacheGauges: CacheGauges
    let descriptorGauges: DescriptorGauges
    /// A shutdown began: `/readyz` answers 503.
    let draining: Draining

    /// `Cache-Control` of `/assets/…`: Leaflet changes only with a package upgrade.
    static let assetCacheControl = "public, max-age=86400"

    /// `/`: a card per layer with a live map (or a still tile without Leaflet).
    func indexPage(_ request: HTTPRequest) -> HTTPResponse {
        let previews = state.layers.layers.map(LayerPreview.init(layer:))
        let body = Array(IndexPage.html(previews, baseURL: baseURL(for: request), leaflet: webAssets.hasLeaflet).utf8)
        let etag = ContentHash.etag(of: body)
        let headers: HTTPHeaders = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache", .eTag: etag]
        if HTTPConditional.isNotModified(request.headers, etag: etag, lastModified: nil) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return HTTPResponse(status: .ok, headers: headers, body: body)
    }

    /// `/assets/{path…}`: a file from the allow-list found at start-up, else 404.
    func webAsset(_ request: HTTPRequest, path: [String]) -> HTTPResponse {
        guard let asset = webAssets[path] else {
            return errorAnswer(.notFound("no asset /assets/\(path.joined(separator: "/"))"), to: request)
        }
        var headers: HTTPHeaders = [.contentType: asset.contentType, .cacheControl: Self.assetCacheControl, .eTag: asset.etag]
        if let modified = asset.lastModified { headers.add(.lastModified, HTTPDate.format(secondsSince1970: modified)) }
        if HTTPConditional.isNotModified(request.headers, etag: asset.etag, lastModified: asset.lastModified) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return HTTPResponse(status: .ok, headers: headers, body: asset.body)
    }
}
