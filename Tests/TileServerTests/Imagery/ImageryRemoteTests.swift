import Foundation
import Testing
import TestHTTPClient
import TestThreads

/// Remote rasters and archives through the real binary: a COG over HTTP from nginx (Range reads),
/// a COG and a PMTiles archive on S3 from moto's server (objects put with boto3); a missing
/// object (404), wrong credentials (403) and an unreachable store are start-up errors naming the
/// URL; a read failure later is a 502 naming the tile; no secret ever in a log line or a body.
@Suite(.ownThreads, .timeLimit(.minutes(3)))
struct ImageryRemoteTests {
    let folder = TemporaryFolder()
    static let keyID = "AKIATILELAYERTESTKEY"
    static let secret = "tilelayer-test-secret/Value+42"
    static let credentials = ["AWS_ACCESS_KEY_ID": keyID, "AWS_SECRET_ACCESS_KEY": secret, "AWS_SESSION_TOKEN": "session-token-value-77",
                              "AWS_REGION": "us-east-1"]

    func config(_ endpoint: String, _ layers: String) throws -> String {
        let path = folder.path + "/tilelayer-\(UUID().uuidString).yml"
        try Data("""
        server: {host: 127.0.0.1, port: 0, s3: {endpoint: "\(endpoint)"}, log: {level: info, access: false}}
        layers:
        \(layers)
        """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func body(_ port: Int, _ path: String) throws -> (Int, [UInt8]) {
        let response = try #require(try RawHTTPClient(port: port).request(path))
        return (response.status, response.body)
    }

    @Test func httpAndS3ServeTheSameTilesAsTheFile() async throws {
        let nginx = try LoopbackStore.nginx(root: Fixtures.packageRoot + "/tiles", scratch: folder.path)
        let moto = try LoopbackStore.moto()
        let archive = folder.path + "/world.pmtiles"
        try await PMTilesReference.writeWorld(to: archive)
        try moto.put(bucket: "imagery", [Fixtures.packageRoot + "/tiles/world.tif": "cogs/world.tif", archive: "world.pmtiles"])
        let server = try ServeProcess(config: try config(moto.endpoint, """
          - {name: local, source: {type: geotiff, path: \(Fixtures.packageRoot)/tiles/world.tif}}
          - {name: http, source: {type: geotiff, url: "\(nginx.endpoint)/world.tif"}}
          - {name: s3, source: {type: geotiff, url: "s3://imagery/cogs/world.tif"}}
          - {name: archive, source: {type: pmtiles, url: "s3://imagery/world.pmtiles"}}
        """), environment: Self.credentials)
        for tile in ["2/1/1.png", "3/4/2@2x.png", "0/0/0.png"] {
            let (status, local) = try body(server.port, "/local/" + tile)
            #expect(status == 200)
            #expect(try body(server.port, "/http/" + tile) == (200, local), "http \(tile)")
            #expect(try body(server.port, "/s3/" + tile) == (200, local), "s3 \(tile)")
        }
        #expect(try body(server.port, "/archive/2/1/1.png") == (200, Fixtures.worldTile(2, 1, 1)))
        #expect(try body(server.port, "/s3/5/0/0.png").0 == 404)
        server.signal(SIGTERM)
        _ = server.waitForExit(seconds: 10)
        #expect(!server.log.contains(Self.secret) && !server.log.contains(Self.keyID))
    }

    @Test func missingWrongAndUnreachableAreStartUpErrorsNamingTheURL() throws {
        let open = try LoopbackStore.moto()
        try open.put(bucket: "imagery", [Fixtures.packageRoot + "/tiles/world.tif": "world.tif"])
        let strict = try LoopbackStore.moto(checkingCredentials: true)
        let cases: [(String, String, [String])] = [
            (open.endpoint, "{type: geotiff, url: \"s3://imagery/missing.tif\"}", ["s3://imagery/missing.tif", "404"]),
            (open.endpoint, "{type: pmtiles, url: \"s3://imagery/missing.pmtiles\"}", ["s3://imagery/missing.pmtiles", "404"]),
            (strict.endpoint, "{type: geotiff, url: \"s3://imagery/world.tif\"}", ["s3://imagery/world.tif", "403"]),
            (strict.endpoint, "{type: pmtiles, url: \"s3://imagery/world.pmtiles\"}", ["s3://imagery/world.pmtiles", "403"]),
            ("http://127.0.0.1:\(try RedisServerProcess.freePort())", "{type: geotiff, url: \"s3://imagery/world.tif\"}",
             ["s3://imagery/world.tif"]),
        ]
        for (endpoint, source, words) in cases {
            do {
                _ = try ServeProcess(config: try config(endpoint, "  - {name: remote, source: \(source)}"), environment: Self.credentials)
                Issue.record("started with \(source) at \(endpoint)")
            } catch {
                let said = "\(error)"
                for word in words { #expect(said.contains(word), "\(source): \(said)") }
                #expect(said.contains("layers[0].source.url"), "\(said)")
                #expect(!said.contains(Self.secret) && !said.contains(Self.keyID) && !said.contains("session-token-value-77"), "\(said)")
            }
        }
    }

    @Test func aReadFailureLaterIsA502NamingTheTile() throws {
        let moto = try LoopbackStore.moto()
        // A COG larger than what GDAL reads ahead when it reads the smallest overview (1.5 MB).
        let large = folder.path + "/large.tif"
        let translate = Process()
        translate.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        translate.arguments = ["gdal_translate", "-q", "-of", "COG", "-co", "COMPRESS=JPEG", "-outsize", "400%", "400%",
                               Fixtures.packageRoot + "/tiles/world.tif", large]
        try translate.run()
        translate.waitUntilExit()
        try #require(translate.terminationStatus == 0, "gdal_translate failed (install gdal-bin)")
        try moto.put(bucket: "imagery", [large: "world.tif"])
        let server = try ServeProcess(config: try config(moto.endpoint, "  - {name: s3, source: {type: geotiff, url: \"s3://imagery/world.tif\"}}"),
                                      environment: Self.credentials)
        #expect(try body(server.port, "/s3/0/0/0.png").0 == 200)  // the smallest overview only
        moto.stop()
        let (status, text) = try body(server.port, "/s3/5/20/10@2x.png")  // full-resolution blocks, never read
        #expect(status == 502, "\(String(decoding: text, as: UTF8.self))")
        let message = String(decoding: text, as: UTF8.self)
        #expect(message.contains("5/20/10") && message.contains("s3://imagery/world.tif"), "\(message)")
        #expect(!message.contains(Self.secret) && !message.contains(Self.keyID))
    }
}
