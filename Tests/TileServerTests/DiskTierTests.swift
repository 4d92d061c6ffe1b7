import Foundation
import Logging
import Synchronization
import Testing
import TileCache
import TileHTTP
@testable import TileProviders
@testable import TileServer

/// The disk tier through the service: restarts, corrupt files, an unusable folder, clearing. (A
/// read-only folder: `DiskTierProcessTests`, on a server process that root's override cannot help.)
@Suite(.timeLimit(.minutes(1))) struct DiskTierTests {
    let folder = TemporaryFolder()
    var cacheFolder: String { folder.path + "/cache" }

    /// A service with layer `test` over `provider` and a disk tier in `disk`.
    func service(_ provider: CountingProvider, disk: String? = nil, memory: Bool = true, maxAge: Int = 3600,
                 logger: Logger = Fixtures.logger) throws -> TileService {
        var registry = SourceRegistry()
        registry.register("counting") { _, _ in .sync(provider) }
        let yaml = """
        layers:
          - name: test
            source: {type: counting}
            maxZoom: 5
            maxAge: \(maxAge)
            cache: {memory: \(memory), disk: \(disk ?? cacheFolder)}
        """
        return try Fixtures.service(yaml: yaml, registry: registry, folder: folder, logger: logger)
    }

    static func solid() -> CountingProvider {
        CountingProvider { x, y, zoom in zoom == 3 ? .noTile : CountingProvider.solid(x: x, y: y, zoom: zoom) }
    }

    @Test func aNewServiceOverTheSameFolderServesFromDiskWithoutTheProvider() async throws {
        let first = Self.solid()
        let before = try service(first)
        let targets = ["/test/1/0/1.png", "/test/2/3/1.png", "/test/1/1/0@2x.png", "/test/3/1/1.png"]
        var answers: [HTTPResponse] = []
        for target in targets { answers.append(try await before.get(target)) }
        await before.waitForCacheWrites()
        #expect(first.callCount > 0)

        let second = Self.solid()
        let after = try service(second)
        for (target, earlier) in zip(targets, answers) {
            let response = try await after.get(target)
            #expect(response.status == earlier.status)
            #expect(response.body == earlier.body)
            #expect(response.headers[.eTag] == earlier.headers[.eTag])
            #expect(response.headers[.lastModified] == earlier.headers[.lastModified])
        }
        #expect(second.callCount == 0)
        #expect(FileManager.default.fileExists(atPath: cacheFolder + "/test/1/1/0@2x.tile"))
        #expect(FileManager.default.fileExists(atPath: cacheFolder + "/test/3/1/1.tile"))  // "no tile" is stored too
    }

    @Test(arguments: ["flip", "truncate", "empty"])
    func aCorruptFileIsDetectedDeletedAndFetchedAgain(damage: String) async throws {
        let first = try service(Self.solid())
        let original = try await first.get("/test/2/1/2.png")
        await first.waitForCacheWrites()
        let path = cacheFolder + "/test/2/1/2.tile"
        var bytes = Array(try #require(FileManager.default.contents(atPath: path)))
        switch damage {
        case "flip": bytes[bytes.count / 2] ^= 0x40
        case "truncate": bytes.removeLast(7)
        default: bytes = []
        }
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))

        let log = CapturedLog()
        let provider = Self.solid()
        let refetching = try service(provider, logger: log.logger())
        let response = try await refetching.get("/test/2/1/2.png")
        #expect(response.status == .ok)
        #expect(response.body == original.body)
        #expect(provider.callCount == 1)
        #expect(log.lines(containing: "corrupt").count == 1)
        await refetching.waitForCacheWrites()
        let repaired = try service(Self.solid())
        #expect(try await repaired.get("/test/2/1/2.png").body == original.body)
    }

    @Test func aFolderUnderAFileDegradesToMemoryOnlyWithOneLogLine() async throws {
        folder.write("plain-file", [1, 2, 3])
        let log = CapturedLog()
        let provider = Self.solid()
        let service = try service(provider, disk: folder.path + "/plain-file/cache", logger: log.logger())
        for x in 0 ..< 4 {
            #expect(try await service.get("/test/2/\(x)/1.png").status == .ok)
            await service.waitForCacheWrites()
        }
        #expect(try await service.get("/test/2/0/1.png").status == .ok)
        #expect(provider.callCount == 4)  // the memory tier still works
        #expect(log.lines(containing: "disk cache failed").count == 1)
    }

    @Test func clearingALayerRemovesItsDiskFilesAndMemoryEntries() async throws {
        let provider = Self.solid()
        let service = try service(provider)
        for target in ["/test/1/0/0.png", "/test/2/0/0.png", "/test/2/3/3.png"] { _ = try await service.get(target) }
        await service.waitForCacheWrites()
        let removed = await service.clearCache(layer: "test") { $0.tile.z == 2 }
        #expect(try removed.get() == 2)
        #expect(FileManager.default.fileExists(atPath: cacheFolder + "/test/1/0/0.tile"))
        #expect(!FileManager.default.fileExists(atPath: cacheFolder + "/test/2/0/0.tile"))
        _ = try await service.get("/test/2/0/0.png")
        _ = try await service.get("/test/1/0/0.png")
        #expect(provider.callCount == 4)
        #expect(try await service.clearCache(layer: "test").get() == nil)
        #expect(!FileManager.default.fileExists(atPath: cacheFolder + "/test"))
    }
}
