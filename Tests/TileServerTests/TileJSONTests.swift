import Foundation
import Testing
import TileHTTP
@testable import TileServer

@Suite struct TileJSONTests {
    let folder = TemporaryFolder()

    private func json(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test func tileJSONDescribesTheLayer() async throws {
        let service = try Fixtures.service(folder: folder)
        let document = try json(await service.get("/world.json"))
        #expect(document["tilejson"] as? String == "3.0.0")
        #expect(document["name"] as? String == "world")
        #expect(document["minzoom"] as? Int == 0)
        #expect(document["maxzoom"] as? Int == 3)  // found from the folder's zoom directories
        #expect(document["attribution"] as? String == "Tom Patterson")
        #expect(document["tiles"] as? [String] == ["http://localhost:8080/world/{z}/{x}/{y}.png"])
        #expect((document["bounds"] as? [Double])?.count == 4)
    }

    @Test func untrustedHostIsNotEchoed() async throws {
        let service = try Fixtures.service(folder: folder)
        let response = try await service.get("/world.json", headers: [.host: "evil.example"])
        #expect(try json(response)["tiles"] as? [String] == ["http://localhost:8080/world/{z}/{x}/{y}.png"])
        let trusted = try await service.get("/world.json", headers: [.host: "127.0.0.1:9000"])
        #expect(try json(trusted)["tiles"] as? [String] == ["http://127.0.0.1:9000/world/{z}/{x}/{y}.png"])
    }

    @Test func publicURLWins() async throws {
        let service = try Fixtures.service(server: ", publicURL: \"https://tiles.example.org/\"", folder: folder)
        let response = try await service.get("/world.json", headers: [.host: "127.0.0.1"])
        #expect(try json(response)["tiles"] as? [String] == ["https://tiles.example.org/world/{z}/{x}/{y}.png"])
    }

    @Test func allowedHostsAreConfigurable() async throws {
        let service = try Fixtures.service(server: ", allowedHosts: [tiles.lan]", folder: folder)
        let response = try await service.get("/world.json", headers: [.host: "tiles.lan:8080"])
        #expect(try json(response)["tiles"] as? [String] == ["http://tiles.lan:8080/world/{z}/{x}/{y}.png"])
        let local = try await service.get("/world.json", headers: [.host: "localhost"])
        #expect(try json(local)["tiles"] as? [String]
            == ["http://localhost:8080/world/{z}/{x}/{y}.png"])
    }

    @Test func indexJSONListsEveryLayerInOrder() async throws {
        let service = try Fixtures.service(extraYAML: """
          - name: second
            source: {type: directory, path: \(Fixtures.worldFolder)}
        """, folder: folder)
        let index = try await service.get("/index.json")
        let documents = try #require(JSONSerialization.jsonObject(with: Data(index.body)) as? [[String: Any]])
        #expect(documents.map { $0["name"] as? String } == ["world", "second"])
    }
}
