import Dispatch
import Foundation
import Synchronization
import TilePNG
@testable import TileProviders
@testable import TileServer

/// A real provider for tests: solid tiles whose colour encodes the coordinate, a delay, and a
/// call counter (to see coalescing and caching from outside).
final class CountingProvider: SyncTileProvider, Sendable {
    let calls = Atomic<Int>(0)
    let delay: Double
    let result: @Sendable (Int, Int, Int) -> TileResult

    init(delay: Double = 0, result: @escaping @Sendable (Int, Int, Int) -> TileResult) {
        self.delay = delay
        self.result = result
    }

    func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
        calls.add(1, ordering: .relaxed)
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        return result(x, y, zoom)
    }

    var callCount: Int { calls.load(ordering: .relaxed) }

    /// A solid PNG of `size` px whose colour names the tile.
    static func solid(x: Int, y: Int, zoom: Int, size: Int = 256) -> TileResult {
        let color = RGBAColor(red: UInt8(x % 256), green: UInt8(y % 256), blue: UInt8(zoom * 10 % 256))
        return .tile(Tile(data: try! PNGEncoder().encode(RGBAImage(width: size, height: size, fill: color)), lastModified: 1000))
    }
}

extension Fixtures {
    /// A service with admin token `s3cret` and one layer `layer` (zoom 0–4) over `provider`.
    static func adminService(layer: String, provider: CountingProvider, folder: TemporaryFolder) throws -> TileService {
        var registry = SourceRegistry()
        registry.register("counting") { _, _ in .sync(provider) }
        let configuration = try Configuration.parse(yaml: """
        server: {adminToken: s3cret}
        layers:
          - {name: \(layer), source: {type: counting}, maxZoom: 4}
        """, file: folder.path + "/t.yml", registry: registry)
        return TileService(state: try ServiceState(configuration: configuration, registry: registry, logger: logger), logger: logger)
    }
}
