import Foundation
import Synchronization
import Testing
import TileHTTP
@testable import TileLayerCLI
@testable import TileServer

/// `tilelayer clear-cache`: the admin request it sends, and the direct disk clear.
@Suite(.timeLimit(.minutes(1))) struct ClearCacheCommandTests {
    let folder = TemporaryFolder()

    /// A server of ours that records each request and answers 204 (401 without the right token).
    final class AdminRecorder: HTTPResponder {
        let requests = Mutex<[(target: String, method: String, authorization: String?)]>([])

        func respond(
            to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void
        ) -> HTTPResponse? {
            let authorization = request.headers[.authorization]
            requests.withLock { $0.append((request.target, "\(request.method)", authorization)) }
            return authorization == "Bearer s3cret" ? HTTPResponse(status: .noContent) : .text(HTTPStatus(code: 401, reason: "Unauthorized"), "bad token")
        }
    }

    func configuration() throws -> Configuration {
        try Fixtures.configuration("""
        server: {adminToken: fromfile}
        layers:
          - name: world
            source: {type: directory, path: \(Fixtures.worldFolder)}
            cache: {disk: cache}
        """, in: folder)
    }

    @Test func postsToTheAdminEndpointWithTheToken() async throws {
        let recorder = AdminRecorder()
        let server = try LiveServer(responder: recorder)
        defer { Task { await server.stop() } }
        let command = try ClearCacheCommand.parse(["--layer", "world", "--server", "http://127.0.0.1:\(server.port)",
                                                   "--zoom", "1-2", "--bbox", "-10,35,30,60"])
        let message = try await command.execute(configuration: nil, environment: ["TILELAYER_ADMIN_TOKEN": "s3cret"], logger: Fixtures.logger)
        #expect(message.contains("cleared"))
        let seen = recorder.requests.withLock { $0 }
        #expect(seen.count == 1)
        #expect(seen.first?.method == "POST")
        #expect(seen.first?.target == "/admin/layers/world/clear-cache?zoom=1-2&bbox=-10,35,30,60")
        #expect(seen.first?.authorization == "Bearer s3cret")

        let wrong = try ClearCacheCommand.parse(["--layer", "world", "--server", "http://127.0.0.1:\(server.port)", "--token", "nope"])
        await #expect(throws: ClearCacheFailure.self) {
            _ = try await wrong.execute(configuration: nil, environment: [:], logger: Fixtures.logger)
        }
    }

    @Test func withNoServerAndAConfigurationItClearsTheDiskTierDirectly() async throws {
        let configuration = try configuration()
        let service = TileService(state: try ServiceState(configuration: configuration, logger: Fixtures.logger), logger: Fixtures.logger)
        for target in ["/world/1/0/0.png", "/world/2/2/1.png", "/world/2/0/3.png"] { _ = try await service.get(target) }
        await service.waitForCacheWrites()
        let cache = folder.path + "/cache/world"
        #expect(FileManager.default.fileExists(atPath: cache + "/2/2/1.tile"))

        let refusing = try RefusingPort()
        let command = try ClearCacheCommand.parse(["--layer", "world", "--server", "http://127.0.0.1:\(refusing.port)",
                                                   "--zoom", "2", "--bbox", "0,0,180,85"])
        let message = try await command.execute(configuration: configuration, environment: [:], logger: Fixtures.logger)
        #expect(message.contains("directly") && message.contains("1 files removed"))
        #expect(!FileManager.default.fileExists(atPath: cache + "/2/2/1.tile"))
        #expect(FileManager.default.fileExists(atPath: cache + "/2/0/3.tile"))
        #expect(FileManager.default.fileExists(atPath: cache + "/1/0/0.tile"))

        await #expect(throws: ClearCacheFailure.self) {
            _ = try await command.execute(configuration: nil, environment: [:], logger: Fixtures.logger)
        }
        withExtendedLifetime(refusing) {}  // refusing until both commands have run
    }

    /// The offline clear builds no layer: another layer whose source cannot be opened does not block it.
    @Test func anOfflineClearIsNotBlockedByAnotherBrokenLayer() async throws {
        folder.write("broken.mbtiles", Array("not a database".utf8))
        folder.write("cache/world/1/0/0.tile", [0])
        let configuration = try Fixtures.configuration("""
        layers:
          - {name: world, source: {type: directory, path: \(Fixtures.worldFolder)}, cache: {disk: cache}}
          - {name: broken, source: {type: mbtiles, path: broken.mbtiles}}
        """, in: folder)
        #expect(throws: ConfigurationError.self) { try ServiceState(configuration: configuration, logger: Fixtures.logger) }
        let refusing = try RefusingPort()
        let command = try ClearCacheCommand.parse(["--layer", "world", "--server", "http://127.0.0.1:\(refusing.port)"])
        let message = try await command.execute(configuration: configuration, environment: [:], logger: Fixtures.logger)
        #expect(message.contains("directly"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/cache/world/1/0/0.tile"))
        withExtendedLifetime(refusing) {}  // refusing until the command has run
    }
}
