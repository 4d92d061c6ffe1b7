import Foundation
import Testing
@testable import TileLayerCLI
@testable import TileServer

/// `tilelayer tile`, run in-process through its command type.
@Suite(.timeLimit(.minutes(1))) struct TileCommandTests {
    let folder = TemporaryFolder()

    func configuration() throws -> Configuration {
        folder.write("sparse/1/0/0.png", Fixtures.worldTile(1, 0, 0))
        folder.write("sparse/1/1/0.png", Array("not a png".utf8))
        return try Fixtures.configuration("""
        layers:
          - name: world
            source: {type: directory, path: \(Fixtures.worldFolder)}
          - name: sparse
            source: {type: directory, path: sparse}
            minZoom: 0
            maxZoom: 1
        """, in: folder)
    }

    func run(_ arguments: [String]) async throws -> [UInt8] {
        try await TileCommand.parse(arguments).execute(configuration: try configuration(), logger: Fixtures.logger)
    }

    @Test func writesTheExactBytesToAFile() async throws {
        let out = folder.path + "/tile.png"
        let command = try TileCommand.parse(["--layer", "world", "2/1/3", "-o", out])
        try command.emit(try await command.execute(configuration: try configuration(), logger: Fixtures.logger))
        #expect(Array(try #require(FileManager.default.contents(atPath: out))) == Fixtures.worldTile(2, 1, 3))
    }

    @Test func retinaAndPngSuffixAreAccepted() async throws {
        let bytes = try await run(["--layer", "world", "1/0/0@2x.png"])
        #expect(try PNGDecoder.decode(bytes).width == 512)
    }

    @Test(arguments: [
        (["--layer", "sparse", "1/0/1"], TileCommand.noTileStatus, "no tile"),
        (["--layer", "sparse", "1/1/0"], 1, "not a PNG"),
        (["--layer", "sparse", "5/0/0"], 1, "outside"),
        (["--layer", "nope", "1/0/0"], 1, "no layer"),
    ] as [([String], Int32, String)])
    func failuresHaveAStatusAndAMessage(arguments: [String], status: Int32, message: String) async throws {
        do {
            _ = try await run(arguments)
            Issue.record("\(arguments) succeeded")
        } catch let failure as TileCommandFailure {
            #expect(failure.status == status)
            #expect(failure.message.contains(message))
        }
    }

    @Test func badCoordinatesAreRefusedByTheParser() {
        #expect(throws: (any Error).self) { try TileArgumentParsing.tile("1/x/0") }
        #expect(throws: (any Error).self) { try TileArgumentParsing.tile("1/0") }
    }
}

import TilePNG
