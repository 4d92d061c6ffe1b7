import Foundation
import Hashing
import Testing
import TileHTTP
@testable import TileServer

/// `/assets/leaflet/…`: only files found at start-up, with the right type and caching headers.
@Suite struct WebAssetTests {
    let folder = TemporaryFolder()
    let leaflet = WebFixtures.leafletFolder()

    @Test(arguments: [
        ("/assets/leaflet/leaflet.js", "text/javascript; charset=utf-8", "leaflet.js"),
        ("/assets/leaflet/leaflet.css", "text/css; charset=utf-8", "leaflet.css"),
        ("/assets/leaflet/images/marker-icon.png", "image/png", "images/marker-icon.png"),
    ])
    func servesAllowedFilesWithTheirType(_ path: String, _ type: String, _ file: String) async throws {
        let service = try WebFixtures.service(assets: WebAssets(leafletFolder: leaflet.path), folder: folder)
        let response = try await service.get(path)
        let bytes = Array(try #require(FileManager.default.contents(atPath: leaflet.path + "/" + file)))
        #expect(response.status == .ok)
        #expect(response.body == bytes)
        #expect(response.headers[.contentType] == type)
        #expect(response.headers[.cacheControl] == "public, max-age=86400")
        #expect(response.headers[.eTag] == ContentHash.etag(of: bytes))
        #expect(response.headers[.lastModified] != nil)
    }

    @Test func matchingETagIs304() async throws {
        let service = try WebFixtures.service(assets: WebAssets(leafletFolder: leaflet.path), folder: folder)
        let etag = try #require(try await service.get("/assets/leaflet/leaflet.js").headers[.eTag])
        let again = try await service.get("/assets/leaflet/leaflet.js", headers: [.ifNoneMatch: etag])
        #expect(again.status == .notModified)
        #expect(again.body.isEmpty)
    }

    @Test(arguments: [
        "/assets/leaflet/nope.js", "/assets/leaflet/README.txt", "/assets/leaflet/leaflet.js.map",
        "/assets/leaflet/images", "/assets/leaflet", "/assets/other/leaflet.js", "/assets/leaflet/images/layers.png",
        "/assets/leaflet/a/b/c.js", "/assets/leaflet/.hidden.js", "/assets/leaflet/LEAFLET.JS",
    ])
    func anythingElseIs404(_ path: String) async throws {
        let service = try WebFixtures.service(assets: WebAssets(leafletFolder: leaflet.path), folder: folder)
        let response = try await service.get(path)
        #expect(response.status == .notFound)
        #expect(!response.body.isEmpty)
    }

    @Test func withoutTheFolderThereAreNoAssets() async throws {
        let assets = WebAssets(leafletFolder: folder.path + "/missing")
        #expect(!assets.hasLeaflet)
        #expect(assets.paths.isEmpty)
        let service = try WebFixtures.service(assets: assets, folder: folder)
        #expect(try await service.get("/assets/leaflet/leaflet.js").status == .notFound)
    }

    @Test func allowListHoldsOnlyScriptsStylesAndImages() {
        let assets = WebAssets(leafletFolder: leaflet.path)
        #expect(assets.hasLeaflet)
        #expect(assets.paths == ["leaflet/images/marker-icon.png", "leaflet/leaflet.css", "leaflet/leaflet.js"])
    }

    @Test func environmentCanNameAnotherLeafletFolder() {
        #expect(WebAssets.leafletFolder(in: [:]) == "/usr/share/javascript/leaflet")
        #expect(WebAssets.leafletFolder(in: ["TILELAYER_LEAFLET_DIR": ""]) == "/usr/share/javascript/leaflet")
        #expect(WebAssets.leafletFolder(in: ["TILELAYER_LEAFLET_DIR": "/opt/leaflet"]) == "/opt/leaflet")
    }

    @Test func routerSendsAssetsToTheAssetRoute() {
        #expect(Router.match(["assets", "leaflet", "leaflet.js"]) == .route(.asset(path: ["leaflet", "leaflet.js"])))
        #expect(Router.match(["assets", "leaflet", "images", "layers.png"])
            == .route(.asset(path: ["leaflet", "images", "layers.png"])))
    }
}

/// Services and folders for the web tests.
enum WebFixtures {
    /// A service over the shipped world layer plus `extraYAML`, with `assets`.
    static func service(extraYAML: String = "", assets: WebAssets, folder: TemporaryFolder) throws -> TileService {
        let base = try Fixtures.service(extraYAML: extraYAML, folder: folder)
        return TileService(state: base.state, logger: Fixtures.logger, webAssets: assets)
    }

    /// The front page's HTML.
    static func page(extraYAML: String = "", assets: WebAssets, folder: TemporaryFolder) async throws -> String {
        let response = try await service(extraYAML: extraYAML, assets: assets, folder: folder).get("/")
        #expect(response.status == .ok)
        return String(decoding: response.body, as: UTF8.self)
    }

    /// A stand-in for Debian's `/usr/share/javascript/leaflet`, with files that must not be served.
    static func leafletFolder() -> TemporaryFolder {
        let leaflet = TemporaryFolder()
        leaflet.write("leaflet.js", Array("window.L = {version: 'test'};\n".utf8))
        leaflet.write("leaflet.css", Array(".leaflet-container { overflow: hidden; }\n".utf8))
        leaflet.write("leaflet.js.map", Array("{}".utf8))
        leaflet.write("README.txt", Array("not served".utf8))
        leaflet.write(".hidden.js", Array("hidden".utf8))
        leaflet.write("images/marker-icon.png", PNGSignature.bytes + [0, 0, 0, 0])
        return leaflet
    }
}
