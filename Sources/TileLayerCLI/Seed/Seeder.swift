import TileGeometry
import TileServer

/// Runs a seed plan through the service's tile pipeline in this process (memory, disk tier,
/// source, renderer; no HTTP), `concurrency` tiles at a time, into the layer's disk tier or an
/// MBTiles sink, with progress and a summary.
struct Seeder {
    let service: TileService
    let layer: Layer
    let plan: SeedPlan
    var concurrency = 4
    /// Where tiles go besides the caches (`--to`); nil: the cache tiers only.
    var sink: TileArchiveSink?
    /// Progress output (nil: none).
    var progress: SeedProgress?
    /// Failures reported one by one before they are only counted.
    static let reportedFailures = 10

    /// Seeds every tile of the plan; a sink failure ends the seed and is thrown.
    func run() async throws -> SeedSummary {
        let clock = ContinuousClock()
        let start = clock.now
        var summary = SeedSummary()
        summary.requested = plan.count
        let jobs = plan.jobs()
        let width = max(1, concurrency)
        try await withThrowingTaskGroup(of: (TileCoordinate, Int, Result<TileOutcome, TileFailure>).self) { group in
            func add() -> Bool {
                guard let job = jobs.next() else { return false }
                group.addTask { [service, layer] in
                    (job.tile, job.scale, await service.outcome(layer: layer, tile: job.tile, scale: job.scale))
                }
                return true
            }
            for _ in 0 ..< width {
                if !add() { break }
            }
            while let next = try await group.next() {
                let (tile, scale, result) = next
                try await record(result, tile: tile, scale: scale, into: &summary)
                progress?.update(done: summary.done)
                _ = add()
                await service.waitForCacheWrites(below: 4 * width)  // back-pressure on the disk tier
            }
        }
        await service.waitForCacheWrites()
        summary.seconds = Double((clock.now - start).components.seconds)
            + Double((clock.now - start).components.attoseconds) / 1e18
        progress?.finish(done: summary.done)
        return summary
    }

    private func record(
        _ result: Result<TileOutcome, TileFailure>, tile: TileCoordinate, scale: Int, into summary: inout SeedSummary
    ) async throws {
        switch result {
        case .success(.tile(let served)):
            let bytes = try served.storedBytes()
            summary.tiles += 1
            summary.bytes += bytes.count
            try await sink?.write(tile: tile, data: bytes)
        case .success(.noTile):
            summary.noTile += 1
        case .success(.unavailable):
            summary.unavailable += 1
        case .failure(let failure):
            summary.errors += 1
            if summary.errors <= Self.reportedFailures {
                printError("\ntilelayer seed: \(layer.name)/\(tile)\(scale == 2 ? "@2x" : ""): \(failure.error)")
            }
        }
    }
}
