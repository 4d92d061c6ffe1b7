import Foundation
import TestHTTPClient
import Testing
import TileHTTP
@testable import TileServer
import TestThreads

/// The OGC services on the real server: KVP parameters percent-encoded on the wire, the tile
/// path's sendfile answers, and an exception report on a kept-alive connection.
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct OGCLiveTests {
    let folder = TemporaryFolder()

    @Test func wmtsAndOGCAPITilesOverOneConnection() async throws {
        let live = try LiveServer(responder: try OGCFixtures.service(folder: folder))
        let client = try RawHTTPClient(port: live.port)
        let kvp = "/wmts?service=WMTS&request=GetTile&version=1.0.0&layer=world&style=default&format=image%2Fpng"
            + "&tilematrixset=GoogleMapsCompatible&tilematrix=3&tilerow=2&tilecol=5"
        for path in [kvp, "/wmts/1.0.0/world/default/GoogleMapsCompatible/3/2/5.png",
                     "/ogc/collections/world/map/tiles/WebMercatorQuad/3/2/5"] {
            let response = try #require(client.request(path))
            #expect(response.status == 200, "\(path)")
            #expect(response.body == Fixtures.worldTile(3, 5, 2), "\(path)")
        }
        let refused = try #require(client.request("/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0"))
        #expect(refused.status == 400)
        #expect(refused.text.contains("exceptionCode=\"MissingParameterValue\" locator=\"LAYER\""))
        let capabilities = try #require(client.request("/wmts/1.0.0/WMTSCapabilities.xml"))
        #expect(capabilities.status == 200 && capabilities.header("Content-Type") == "application/xml")
        await live.stop()
    }
}
