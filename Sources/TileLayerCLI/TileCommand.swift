import ArgumentParser
import Foundation
import Logging
import TileServer

/// `tilelayer tile`: one tile, made in this process as the server would serve it, to a file or
/// standard output.
struct TileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tile",
        abstract: "Write one tile (Z/X/Y or Z/X/Y@2x) of a layer to a file or standard output.",
        discussion: "Exit status: 0 written; 2 no tile here; 75 not available now (retry later); 1 any other error.")

    @Option(name: .shortAndLong, help: "Configuration file (YAML).")
    var config = ConfigurationOptions.defaultPath
    @Option(help: "The layer.")
    var layer: String
    @Argument(help: "The tile: Z/X/Y or Z/X/Y@2x (a .png suffix is allowed).")
    var tile: String
    @Option(name: .shortAndLong, help: "Output file (default: standard output).")
    var output: String?
    @Option(name: .customLong("var"), help: "A layer variable, name=value (repeatable).")
    var variables: [String] = []

    /// Exit status for "no tile here".
    static let noTileStatus: Int32 = 2
    /// Exit status for "not available now" (sysexits EX_TEMPFAIL).
    static let unavailableStatus: Int32 = 75

    func run() throws {
        let configuration = try ConfigurationOptions.load(config)
        let logger = ConfigurationOptions.bootstrapLogging(level: configuration.server.logLevel, format: configuration.server.logFormat)
        let bytes: [UInt8]
        do {
            bytes = try AsyncBridge.run { [self] in try await execute(configuration: configuration, logger: logger) }
        } catch let failure as TileCommandFailure {
            printError("tilelayer tile: \(failure.message)")
            throw ExitCode(failure.status)
        }
        try emit(bytes)
    }

    /// Writes the tile to `--output` (replaced in one step) or standard output.
    func emit(_ bytes: [UInt8]) throws {
        guard let output else { return try Self.writeAll(bytes, to: STDOUT_FILENO) }
        do { try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic) } catch {
            printError("tilelayer tile: cannot write \(output): \(error.localizedDescription)")
            throw ExitCode.failure
        }
    }

    /// The tile's bytes, or a `TileCommandFailure` saying why there are none.
    func execute(configuration: Configuration, logger: Logger) async throws -> [UInt8] {
        let (z, x, y, scale) = try TileArgumentParsing.tile(tile)
        let state: ServiceState
        do { state = try ServiceState(configuration: configuration, logger: logger) } catch {
            throw TileCommandFailure(status: 1, message: "bad configuration: \(error)")
        }
        guard let layer = state.layers[self.layer] else {
            throw TileCommandFailure(status: 1, message: "no layer \"\(self.layer)\" in \(configuration.file)")
        }
        guard let coordinate = layer.tileCoordinate(z: z, x: x, y: y) else {
            throw TileCommandFailure(status: 1, message: "\(tile) is outside layer \"\(layer.name)\" (zooms \(layer.minZoom)-\(layer.maxZoom), y in 0-2^z-1)")
        }
        let query = variables.map { item -> (name: String, value: String) in
            let pair = item.split(separator: "=", maxSplits: 1).map(String.init)
            return (pair[0], pair.count > 1 ? pair[1] : "")
        }
        let values: [String: String]
        switch layer.variableValues(from: query) {
        case .success(let found): values = found
        case .failure(let problem): throw TileCommandFailure(status: 1, message: problem.description)
        }
        let service = TileService(state: state, logger: logger)
        let result = await service.outcome(layer: layer, tile: coordinate, scale: scale, variables: values)
        await service.waitForCacheWrites()
        switch result {
        case .success(.tile(let served)):
            do { return try served.storedBytes() } catch {
                throw TileCommandFailure(status: 1, message: "tile \(tile) of layer \"\(layer.name)\": \(error)")
            }
        case .success(.noTile):
            throw TileCommandFailure(status: Self.noTileStatus, message: "layer \"\(layer.name)\" has no tile at \(tile)")
        case .success(.unavailable(let retryAfter)):
            throw TileCommandFailure(status: Self.unavailableStatus,
                                     message: "tile \(tile) of layer \"\(layer.name)\" is not available now; retry in \(retryAfter) s")
        case .failure(let failure):
            throw TileCommandFailure(status: 1, message: "the source of layer \"\(layer.name)\" failed for \(tile): \(failure.error)")
        }
    }

    /// Writes every byte (binary-safe; retries short writes and EINTR).
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) throws {
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + done, bytes.count - done) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                printError("tilelayer tile: cannot write the tile: \(String(cString: strerror(errno)))")
                throw ExitCode.failure
            }
            done += count
        }
    }
}

/// Why `tilelayer tile` wrote nothing, and its exit status.
struct TileCommandFailure: Error, Equatable {
    let status: Int32
    let message: String
}
