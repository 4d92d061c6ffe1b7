import Logging
import Sockets
import TileProviders

/// `source: {type: mbtiles, path, immutable}`: an MBTiles 1.3 file, whose metadata fills the layer.
public struct MBTilesSource: ConfiguredSource, Equatable {
    /// The file, absolute.
    public var path: String
    /// The operator's promise that the file is never written in place while served (a new
    /// version is renamed over it): tiles may then go to the socket from the file's pages by
    /// reference, not copied (`MBTilesTileProvider.isImmutable`).
    public var immutable: Bool

    /// An MBTiles file.
    public init(path: String, immutable: Bool = false) {
        self.path = path
        self.immutable = immutable
    }

    public var summary: String { "MBTiles" }

    /// The file is there and readable.
    public func readinessProblem() -> String? { LayerReadiness.problem(at: path, folder: false) }

    public func build(in context: SourceBuildContext) throws -> BuiltSource {
        // A layer without a disk tier is read on the event loops: a connection that never waits
        // for each (the server runs one per core by default).
        let provider = try MBTilesTileProvider(
            path: path, readersWithoutWaiting: context.readsOnEventLoops ? System.coreCount : 0,
            residency: .seconds(context.residencySeconds), isImmutable: immutable)
        if let problem = provider.readersWithoutWaitingProblem {
            // Vector tiles are never read on the loops (each is answered per client
            // Accept-Encoding): as designed, not worth a notice at each start.
            let level: Logger.Level = provider.metadata.tileFormat == .pbf ? .debug : .notice
            context.logger.log(level: level, "layer \"\(context.layerName)\": \(path) is read by the worker threads, not the event loops: \(problem)")
        }
        return BuiltSource(
            source: .sync(provider),
            format: provider.metadata.tileFormat.map { SourceFormat($0, from: "the format metadata of \(path)") },
            metadata: SourceMetadata(provider.metadata))
    }
}

/// Reads `source: {type: mbtiles, path: FILE, immutable: BOOL}` (`immutable` false unless given).
struct MBTilesSourceKind: SourceKind {
    let type = "mbtiles"

    func settings(from node: ConfigNode, baseFolder: String) throws(ConfigurationError) -> any ConfiguredSource {
        let keys = try node.mapping(allowed: ["type", "path", "immutable"])
        return MBTilesSource(path: try node.existingPath(keys["path"], baseFolder: baseFolder, folder: false),
                             immutable: try keys["immutable"]?.bool() ?? false)
    }
}
