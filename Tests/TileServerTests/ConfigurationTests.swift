import Testing
@testable import TileServer

@Suite struct ConfigurationTests {
    let folder = TemporaryFolder()

    private func load(_ yaml: String) throws(ConfigurationError) -> Configuration {
        try Configuration.parse(yaml: yaml, file: folder.path + "/t.yml")
    }

    private func error(_ yaml: String) -> ConfigurationError? {
        do {
            _ = try load(yaml)
            return nil
        } catch {
            return error
        }
    }

    @Test func defaultsForEverything() async throws {
        let configuration = try load("layers: []")
        #expect(configuration.server == ServerSettings())
        #expect(configuration.server.port == 8080)
        #expect(configuration.server.cors == "*")
        let layer = "layers: [{name: a, source: {type: directory, path: /}, cache: {revalidateSeconds: 0.5}}]"
        #expect(try load(layer).layers.first?.cache.revalidateSeconds == 0.5)
        #expect(try load("layers: [{name: a, source: {type: directory, path: /}}]").layers.first?.cache.revalidateSeconds == nil)
        #expect(LayerCacheSettings.defaultRevalidateSeconds == 1)
    }

    @Test func shippedConfigurationLoads() async throws {
        let configuration = try Configuration.load(file: Fixtures.packageRoot + "/config/tilelayer.yml", environment: [:])
        #expect(configuration.layers.first?.name == "world")
        #expect(configuration.layers.first?.isDefault == true)
        #expect(try ServiceState(configuration: configuration, logger: Fixtures.logger).layers.defaultLayer?.name == "world")
    }

    @Test func relativePathsAreRelativeToTheFile() async throws {
        folder.write("tiles/0/0/0.png", Fixtures.worldTile(0, 0, 0))
        let configuration = try load("layers:\n  - {name: a, source: {type: directory, path: tiles}}")
        #expect(configuration.layers[0].source == .directory(path: folder.path + "/tiles", template: "{z}/{x}/{y}.png"))
    }

    /// The freshness settings of earlier versions are gone: one contract, `cache.revalidateSeconds`
    /// (a key the server does not know is an error naming it).
    @Test(arguments: [
        ("layers:\n  - {name: a, source: {type: mbtiles, path: a.mbtiles, immutable: true}}", "layers[0].source.immutable"),
        ("layers: [{name: a, source: {type: directory, path: /}, cache: {openFileSeconds: 1}}]", "layers[0].cache.openFileSeconds"),
        ("layers: [{name: a, source: {type: directory, path: /}, cache: {residencySeconds: 1}}]", "layers[0].cache.residencySeconds"),
        ("server: {cache: {reuseSeconds: 0.1}}\nlayers: []", "server.cache.reuseSeconds"),
        ("server: {cache: {reuseHitSeconds: 1}}\nlayers: []", "server.cache.reuseHitSeconds"),
    ])
    func theOldFreshnessSettingsAreUnknownKeys(yaml: String, key: String) async throws {
        folder.write("a.mbtiles", [1])
        let problem = error(yaml)
        #expect(problem?.key == key && problem?.message.contains("unknown key") == true, "\(String(describing: problem))")
    }

    @Test func environmentTokenWins() async throws {
        folder.write("c.yml", Array("server: {adminToken: fromfile}\nlayers: []\n".utf8))
        let configuration = try Configuration.load(file: folder.path + "/c.yml", environment: ["TILELAYER_ADMIN_TOKEN": "fromenv"])
        #expect(configuration.server.adminToken == "fromenv")
    }

    @Test(arguments: [
        ("server: {prot: 1}\nlayers: []", "server.prot", "unknown key"),
        ("server: {port: 70000}", "server.port", "out of range"),
        ("server: {port: abc}", "server.port", "whole number"),
        ("server: {cache: {memoryBytes: -1}}", "server.cache.memoryBytes", "out of range"),
        ("server: {publicURL: tiles.example.org}", "server.publicURL", "http://"),
        ("server: {log: {level: loud}}", "server.log.level", "unknown level"),
        ("layers: [{source: {type: directory, path: /}}]", "layers[0]", "needs a name"),
        ("layers: [{name: Bad, source: {type: directory, path: /}}]", "layers[0].name", "not a valid layer name"),
        ("layers: [{name: static, source: {type: directory, path: /}}]", "layers[0].name", "reserved"),
        ("layers: [{name: camera, source: {type: directory, path: /}}]", "layers[0].name", "reserved"),
        ("layers: [{name: a}]", "layers[0]", "needs a source"),
        ("layers: [{name: a, source: {type: ftp}}]", "layers[0].source", "unknown source type"),
        ("layers: [{name: a, source: {type: directory, path: /nonexistent/x}}]", "layers[0].source.path", "does not exist"),
        ("layers: [{name: a, source: {type: directory, path: /, template: \"{z}/{x}.png\"}}]", "layers[0].source.template", "{y}"),
        ("layers: [{name: a, source: {type: directory, path: /, template: \"../{z}/{x}/{y}.png\"}}]", "layers[0].source.template", ".."),
        ("layers: [{name: a, source: {type: directory, path: /}, minZoom: 5, maxZoom: 2}]", "layers[0]", "above maxZoom"),
        ("layers: [{name: a, source: {type: directory, path: /}, tileSize: 300}]", "layers[0].tileSize", "256 or 512"),
        ("layers: [{name: a, source: {type: directory, path: /}, emptyTile: 500}]", "layers[0].emptyTile", "404, 204, transparent"),
        ("layers: [{name: a, source: {type: directory, path: /}, bounds: [1, 2, 3]}]", "layers[0].bounds", "4 numbers"),
        ("layers: [{name: a, source: {type: directory, path: /}, colour: red}]", "layers[0].colour", "unknown key"),
        ("layers: [{name: a, source: {type: directory, path: /}, cache: {revalidateSeconds: -1}}]",
         "layers[0].cache.revalidateSeconds", "out of range"),
        ("layers: [{name: a, source: {type: directory, path: /}}, {name: a, source: {type: directory, path: /}}]",
         "layers[1].name", "defined twice"),
        ("layers: [{name: a, default: true, source: {type: directory, path: /}}, {name: b, default: true, source: {type: directory, path: /}}]",
         "layers", "more than one default"),
        ("layers: {name: a}", "layers", "expected a list"),
        ("server: [1, 2]", "server", "expected a mapping"),
        ("server: {port: 1", "", "not valid YAML"),
    ])
    func badConfigurationNamesFileKeyAndProblem(_ yaml: String, _ key: String, _ message: String) {
        let problem = error(yaml)
        #expect(problem?.file == folder.path + "/t.yml")
        #expect(problem?.key == key)
        #expect(problem?.message.contains(message) == true, "\(String(describing: problem))")
    }

    @Test func errorDescriptionHasFileLineAndKey() {
        let problem = error("server:\n  port: 8080\n  hots: x\n")
        #expect(problem?.description == "\(folder.path)/t.yml:3: server.hots: unknown key (known keys here: host, port, publicURL, allowedHosts, cors, adminToken, cache, limits, timeouts, log, transport, workers, s3)")
    }
}
