import ArgumentParser
import Logging
import TileGeometry
import TileServer

/// `tilelayer seed`: pre-fill a layer's disk cache, or write an MBTiles file, for a zoom range
/// and a bbox or a camera view.
struct SeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Pre-fill a layer's disk cache (cache.disk), or write an MBTiles or PMTiles file with --to.",
        discussion: """
            Tiles are made in this process through the layer's pipeline (source, @2x rendering, caches); no server \
            is needed. Without --to they fill the layer's disk tier (cache.disk), which a server started later (or \
            running now) reads; seeding the memory tier would only matter inside this process, so a layer without \
            cache.disk needs --to. Progress goes to standard error (a bar on a terminal, a line every few seconds \
            otherwise); the summary to standard output. Exit status 1 when a tile failed or was not available.
            """)

    @Option(name: .shortAndLong, help: "Configuration file (YAML).")
    var config = ConfigurationOptions.defaultPath
    @Option(help: "The layer to seed.")
    var layer: String
    @Option(help: "Zoom levels A-B (or one zoom). Default with --view: the view's tile zoom; else the layer's range.")
    var zoom: String?
    @Option(parsing: .unconditional, help: "Area: west,south,east,north in degrees (default: the layer's bounds).")
    var bbox: String?
    @Option(parsing: .unconditional, help: "A camera view: lon,lat,zoom[,bearing[,tilt]]; seeds exactly the tiles it shows (needs --size).")
    var view: String?
    @Option(help: "The view's size in points: WxH or WxH@2x (@2x seeds 512 px tiles).")
    var size: String?
    @Flag(help: "Also seed the 512 px (@2x) tiles.")
    var retina = false
    @Option(help: "Tiles made at the same time.")
    var concurrency = 4
    @Option(help: "Write the tiles to this file instead of (and besides) the caches: PMTiles v3 when it ends in .pmtiles, else MBTiles 1.3.")
    var to: String?
    @Option(help: "Refuse to seed more tiles than this unless --force.")
    var maxTiles = 100_000
    @Flag(help: "Seed even more than --max-tiles tiles.")
    var force = false

    func run() throws {
        let configuration = try ConfigurationOptions.load(config)
        let logger = ConfigurationOptions.bootstrapLogging(level: configuration.server.logLevel, format: configuration.server.logFormat)
        let summary = try AsyncBridge.run { [self] in try await execute(configuration: configuration, logger: logger, progress: nil) }
        print("tilelayer seed: layer \(layer): \(summary.line)")
        if !summary.isComplete { throw ExitCode.failure }
    }

    /// The seed, for `run` and tests: validates, builds the service and the plan, runs it.
    /// `progress` nil shows the default progress on standard error.
    func execute(configuration: Configuration, logger: Logger, progress: SeedProgress? = nil) async throws -> SeedSummary {
        let state: ServiceState
        do { state = try ServiceState(configuration: configuration, logger: logger) } catch {
            throw ValidationError("bad configuration: \(error)")
        }
        guard let layer = state.layers[self.layer] else {
            throw ValidationError("no layer \"\(self.layer)\" in \(configuration.file) (layers: \(state.layers.layers.map(\.name).joined(separator: ", ")))")
        }
        let plan = try makePlan(layer: layer)
        guard to != nil || layer.settings.cache.disk != nil else {
            throw ValidationError("layer \"\(layer.name)\" has no cache.disk: seeding would only fill this process's memory; "
                                  + "configure cache.disk for it or write a file with --to FILE.mbtiles")
        }
        guard plan.count <= maxTiles || force else {
            throw ValidationError("this would seed \(plan.count) tiles, more than --max-tiles \(maxTiles); "
                                  + "narrow --zoom or --bbox, raise --max-tiles, or pass --force")
        }
        let service = TileService(state: state, logger: logger)
        var sink: TileArchiveSink?
        if let to {
            let created = try TileArchiveSink(path: to)
            try await created.setMetadata(metadata(layer: layer, plan: plan))
            sink = created
        }
        let seeder = Seeder(service: service, layer: layer, plan: plan, concurrency: concurrency, sink: sink,
                            progress: progress ?? SeedProgress(total: plan.count))
        do {
            let summary = try await seeder.run()
            try await sink?.finish()
            return summary
        } catch {
            await sink?.cancel()
            throw error
        }
    }

    /// The tiles: a view's (`ViewTiles`, at its tile zoom unless --zoom says) or a bbox's.
    func makePlan(layer: Layer) throws -> SeedPlan {
        if to != nil, retina { throw ValidationError("--retina with --to: an MBTiles file holds one tile size; seed twice into two files") }
        let limits = CameraLimits(minZoom: layer.minZoom, maxZoom: layer.maxZoom, targetBounds: layer.settings.targetBounds)
        let requested = try zoom.map(TileArgumentParsing.zoomRange)
        if let view {
            guard bbox == nil else { throw ValidationError("give --bbox or --view, not both") }
            guard let size else { throw ValidationError("--view needs --size WxH[@2x]") }
            let viewport = try TileArgumentParsing.viewport(size)
            let camera = try TileArgumentParsing.camera(view, limits: limits)
            let ground = ViewTiles(camera: camera, viewport: viewport)
            let zooms = try requested.map { try clamp($0, layer: layer) }
                ?? [ViewTiles.tileZoom(forZoom: camera.zoom, limits: limits)]
            let tiles = zooms.flatMap { ground.tiles(atZoom: $0) }
            let scales = viewport.scale == 2 ? [2] : (retina ? [1, 2] : [1])
            return SeedPlan(area: .tiles(tiles, bounds: ground.bounds), scales: scales)
        }
        if size != nil { throw ValidationError("--size goes with --view") }
        let box = try bbox.map(TileArgumentParsing.bbox) ?? layer.settings.bounds ?? WebMercator.worldBounds
        let zooms = try clamp(requested ?? layer.minZoom ... layer.maxZoom, layer: layer)
        return SeedPlan(area: .bbox(box, zooms: zooms.first! ... zooms.last!), scales: retina ? [1, 2] : [1])
    }

    private func clamp(_ zooms: ClosedRange<Int>, layer: Layer) throws -> [Int] {
        let low = max(zooms.lowerBound, layer.minZoom), high = min(zooms.upperBound, layer.maxZoom)
        guard low <= high else {
            throw ValidationError("--zoom \(zooms.lowerBound)-\(zooms.upperBound) is outside layer \"\(layer.name)\"'s range \(layer.minZoom)-\(layer.maxZoom)")
        }
        return Array(low ... high)
    }

    /// MBTiles 1.3 metadata: name, format, bounds, center, minzoom, maxzoom, attribution.
    func metadata(layer: Layer, plan: SeedPlan) -> [(String, String)] {
        let bounds = plan.bounds
        let zooms = plan.zooms ?? layer.minZoom ... layer.minZoom
        var centerLongitude = (bounds.west + bounds.east) / 2
        if bounds.west > bounds.east { centerLongitude = Coordinate.wrappedLongitude(centerLongitude + 180) }
        var rows: [(String, String)] = [
            ("name", layer.name), ("format", layer.format.rawValue), ("type", "baselayer"), ("version", "1.3"),
            ("bounds", bounds.array.map { "\($0)" }.joined(separator: ",")),
            ("center", "\(centerLongitude),\((bounds.south + bounds.north) / 2),\(zooms.lowerBound)"),
            ("minzoom", "\(zooms.lowerBound)"), ("maxzoom", "\(zooms.upperBound)"),
        ]
        if let attribution = layer.settings.attribution { rows.append(("attribution", attribution)) }
        if let description = layer.settings.description { rows.append(("description", description)) }
        return rows
    }
}
