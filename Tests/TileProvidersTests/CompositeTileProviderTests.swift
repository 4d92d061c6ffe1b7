import Logging
import Testing
import TileGeometry
import TilePNG
@testable import TileProviders

/// A provider answering one fixed result (a real provider, not a mock of the composite).
private struct FixedProvider: SyncTileProvider {
    let result: TileResult
    func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult { result }
}

@Suite struct CompositeTileProviderTests {
    let logger = Logger(label: "test")

    func solid(_ color: RGBAColor, size: Int = 256) throws -> TileResult {
        .tile(Tile(data: try PNGEncoder().encode(RGBAImage(width: size, height: size, fill: color)), lastModified: 100))
    }

    func composite(_ results: [(TileResult, Double)]) -> CompositeTileProvider {
        CompositeTileProvider(members: results.enumerated().map { index, item in
            .init(source: .sync(FixedProvider(result: item.0)), opacity: item.1, name: "m\(index)")
        }, logger: logger)
    }

    func image(_ result: TileResult) throws -> RGBAImage {
        guard case .tile(let tile) = result else { throw TileProviderError.renderFailed(reason: "no tile: \(result)") }
        return try PNGDecoder.decode(tile.data)
    }

    @Test func drawsBottomToTopWithOpacity() async throws {
        let stack = composite([(try solid(.blue), 1), (try solid(.red), 0.5)])
        let pixel = try image(try await stack.requestTile(TileRequest(x: 0, y: 0, zoom: 0))).pixel(x: 10, y: 10)
        // Premultiplied "over": 0.5·red + 0.5·blue, rounded half up once at the end.
        #expect(pixel == RGBAColor(red: 128, green: 0, blue: 128, alpha: 255))
    }

    @Test func memberWithoutTileIsTransparent() async throws {
        let stack = composite([(.noTile, 1), (try solid(.green), 1)])
        #expect(try image(try await stack.requestTile(TileRequest(x: 0, y: 0, zoom: 0))).pixel(x: 0, y: 0) == .green)
    }

    @Test func allWithoutTileIsNoTile() async throws {
        #expect(try await composite([(.noTile, 1), (.noTile, 0.5)]).requestTile(TileRequest(x: 0, y: 0, zoom: 0)) == .noTile)
    }

    @Test func oneUnavailableMakesTheCompositeUnavailable() async throws {
        let stack = composite([(try solid(.blue), 1), (.unavailable(retryAfter: 7), 1)])
        #expect(try await stack.requestTile(TileRequest(x: 0, y: 0, zoom: 0)) == .unavailable(retryAfter: 7))
    }

    @Test func aBrokenMemberTileIsAnErrorNamingIt() async throws {
        let stack = composite([(try solid(.blue), 1), (.tile(Tile(data: [0x89, 0x50, 0x4E, 0x47, 1, 2, 3])), 1)])
        await #expect {
            _ = try await stack.requestTile(TileRequest(x: 1, y: 2, zoom: 3))
        } throws: { error in
            guard case .undecodable(let source, _) = error as? TileProviderError else { return false }
            return source.contains("m1") && source.contains("3/1/2")
        }
    }

    @Test func a512MemberIsDownscaled() async throws {
        let stack = composite([(try solid(.blue, size: 512), 1)])
        let result = try image(try await stack.requestTile(TileRequest(x: 0, y: 0, zoom: 0)))
        #expect(result.width == 256)
        #expect(result.pixel(x: 100, y: 100) == .blue)
    }
}
