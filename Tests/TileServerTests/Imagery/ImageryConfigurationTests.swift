import Testing
import TileImagery
@testable import TileServer

/// The `geotiff` source's keys and `server.s3`: what is read, and errors that name the key.
struct ImageryConfigurationTests {
    let folder = TemporaryFolder()
    static let raster = Fixtures.packageRoot + "/tiles/world.tif"

    func parse(_ source: String, server: String = "") throws -> Configuration {
        try Fixtures.configuration("server: {port: 8080\(server)}\nlayers:\n  - name: imagery\n    source: \(source)\n", in: folder)
    }

    @Test func keysAreRead() throws {
        let configuration = try parse("{type: geotiff, url: s3://bucket/a/b.tif, bands: [3, 2, 1], rescale: [0, 4000], resampling: lanczos, nodata: -9999}",
                                      server: ", s3: {endpoint: \"http://127.0.0.1:9000\", region: eu-west-1, pathStyle: true}, cache: {gdalBytes: 67108864}")
        let source = try #require(configuration.layers[0].source.value as? GeoTIFFSource)
        #expect(source.location == .s3(bucket: "bucket", key: "a/b.tif"))
        #expect(source.options == GeoTIFFOptions(bands: [3, 2, 1], rescale: 0 ... 4000, resampling: .lanczos, nodata: -9999))
        #expect(configuration.server.objectStore == ObjectStoreSettings(endpoint: "http://127.0.0.1:9000", region: "eu-west-1", pathStyle: true))
        #expect(configuration.server.gdalCacheBytes == 67_108_864)
    }

    @Test(arguments: [
        ("{type: geotiff, path: \(raster), colour: red}", "layers[0].source.colour", "colour"),
        ("{type: geotiff, path: \(raster), resampling: sharp}", "layers[0].source.resampling", "unknown resampling \"sharp\""),
        ("{type: geotiff, path: \(raster), bands: [1, 2]}", "layers[0].source.bands", "one band"),
        ("{type: geotiff, path: \(raster), rescale: [5, 1]}", "layers[0].source.rescale", "min < max"),
        ("{type: geotiff, path: \(raster), url: \"s3://b/k\"}", "layers[0].source", "not both"),
        ("{type: geotiff, url: \"ftp://host/x.tif\"}", "layers[0].source.url", "s3://bucket/key"),
        ("{type: geotiff, path: nowhere.tif}", "layers[0].source.path", "does not exist"),
    ])
    func badKeysNameTheKey(source: String, key: String, words: String) throws {
        do {
            _ = try parse(source)
            Issue.record("accepted \(source)")
        } catch let error as ConfigurationError {
            #expect(error.key == key && error.description.contains(words), "\(error)")
        }
    }

    @Test func unknownS3KeyIsAnError() throws {
        do {
            _ = try parse("{type: geotiff, path: \(Self.raster)}", server: ", s3: {endpoint: \"http://x\", secret: y}")
            Issue.record("accepted an unknown s3 key")
        } catch let error as ConfigurationError {
            #expect(error.key.hasPrefix("server.s3") && error.description.contains("secret"), "\(error)")
        }
    }

    @Test func aFileThatIsNotARasterIsAStartUpErrorNamingIt() throws {
        folder.write("not.tif", Array("hello".utf8))
        let configuration = try parse("{type: geotiff, path: not.tif}")
        do {
            _ = try LayerTable.build(from: configuration, logger: Fixtures.logger)
            Issue.record("built a layer over a text file")
        } catch {
            #expect(error.key == "layers[0].source.path" && error.description.contains(folder.path + "/not.tif"), "\(error)")
        }
    }
}
