import Prometheus
import Testing
import TileHTTP
@testable import TileServer

/// `/metrics` called as a function: valid exposition text, the service's own series, labels.
@Suite struct MetricsExpositionTests {
    let folder = TemporaryFolder()

    private func scrape(_ service: TileService) async throws -> PrometheusExposition {
        let response = try await service.get("/metrics")
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
        return try PrometheusExposition(String(decoding: response.body, as: UTF8.self))
    }

    @Test func parsesAndHasCacheAndLayerSeriesWithoutAnInjectedRegistry() async throws {
        let service = try Fixtures.service(folder: folder)
        let page = try await scrape(service)
        #expect(page.types["tilelayer_cache_bytes"] == "gauge")
        #expect(page.types["tilelayer_cache_entries"] == "gauge")
        #expect(page.types["tilelayer_cache_capacity_bytes"] == "gauge")
        #expect(page.types["tilelayer_cache_evictions_total"] == "counter")
        #expect(page.types["tilelayer_cache_hits_total"] == "counter")
        #expect(page.types["tilelayer_provider_calls_total"] == "counter")
        #expect(page.help["tilelayer_cache_hits_total"] != nil)
        #expect(page.value("tilelayer_cache_capacity_bytes") == Double(service.state.server.cacheMemoryBytes))
        #expect(page.value("tilelayer_cache_hits_total", ["layer": "world"]) == 0)
    }

    @Test func tileLookupsMoveTheLayerCounters() async throws {
        let service = try Fixtures.service(folder: folder)
        for _ in 0 ..< 3 { #expect(try await service.get("/1/0/1.png").status == .ok) }
        #expect(try await service.get("/world/1/1/1.png").status == .ok)
        let page = try await scrape(service)
        #expect(page.value("tilelayer_cache_hits_total", ["layer": "world"]) == 2)
        #expect(page.value("tilelayer_cache_misses_total", ["layer": "world"]) == 2)
        #expect(page.value("tilelayer_provider_calls_total", ["layer": "world"]) == 2)
        #expect(page.value("tilelayer_cache_entries") == 2)
        #if os(Linux)
        // Cached bodies live in the body arena, in whole 4 KiB pages.
        let charged = { (count: Int) in (count + 4095) / 4096 * 4096 }
        #else
        let charged = { (count: Int) in count }
        #endif
        let tileBytes = Double(charged(Fixtures.worldTile(1, 0, 1).count) + charged(Fixtures.worldTile(1, 1, 1).count))
        // Stored bytes are what the cache charges: the bodies plus a fixed bookkeeping cost each.
        let stored = try #require(page.value("tilelayer_cache_stored_bytes_total", ["layer": "world"]))
        #expect(stored == tileBytes + Double(2 * TileOutcome.entryOverhead))
        #expect(page.value("tilelayer_cache_bytes") == stored)
    }

    @Test func rendersAnInjectedRegistryWithEverythingInIt() async throws {
        let registry = PrometheusCollectorRegistry()
        let elsewhere = MetricNameDescriptor(metricName: "elsewhere", unitName: "total", helpText: "Another library's.")
        registry.makeCounter(descriptor: elsewhere, labels: [("kind", "a\"b\\c\nd")]).increment(by: Int64(3))
        let configuration = try Fixtures.configuration("""
            layers:
              - {name: world, default: true, source: {type: directory, path: \(Fixtures.worldFolder)}}
            """, in: folder)
        let service = TileService(state: try ServiceState(configuration: configuration, logger: Fixtures.logger),
                                  logger: Fixtures.logger, metrics: registry)
        let page = try await scrape(service)
        #expect(page.value("elsewhere_total", ["kind": "a\"b\\c\nd"]) == 3)
        #expect(page.help["elsewhere_total"] == "Another library's.")
        #expect(page.types["tilelayer_cache_hits_total"] == "counter")
    }

    @Test(arguments: [
        ("/1/0/0.png", "tile"), ("/world/1/0/0.png", "tile"), ("/nolayer/1/0/0.png", "tile"),
        ("/healthz", "health"), ("/metrics", "metrics"), ("/", "index"), ("/index.json", "tilejson"),
        ("/world.json", "tilejson"), ("/no/such/path", "other"), ("/1/x/0.png", "other"),
    ])
    func responsesCarryARouteLabelNeverThePath(target: String, label: String) async throws {
        let service = try Fixtures.service(folder: folder)
        let response = try await service.answerAsSent(target)
        #expect(response.route == label)
    }

    /// A miss, then a hit, answered on the loop (the tile's file is in the kernel's caches).
    @Test func tileAnswersNoteTheCacheForTheAccessLog() async throws {
        let service = try Fixtures.service(folder: folder)
        let miss = try await service.answerAsSent("/2/1/1.png")
        #expect(miss.note == "miss", "note: \(miss.note ?? "nil"), status \(miss.status)")
        #expect(try service.answerOnLoop("/2/1/1.png")?.note == "hit")
    }

    @Test func helpLinesAreAddedOnceBeforeKnownTypes() {
        let input = Array("# TYPE tilelayer_cache_bytes gauge\ntilelayer_cache_bytes 1\n# TYPE x gauge\nx 2\n".utf8)
        let output = String(decoding: PageEndpoint.addingHelp(to: input), as: UTF8.self)
        #expect(output == "# HELP tilelayer_cache_bytes Bytes held in the memory cache now.\n"
            + "# TYPE tilelayer_cache_bytes gauge\ntilelayer_cache_bytes 1\n# TYPE x gauge\nx 2\n")
        #expect(PageEndpoint.addingHelp(to: Array(output.utf8)) == Array(output.utf8))
        #expect(PageEndpoint.addingHelp(to: []) == [])
    }

    @Test(arguments: [
        "x 1\n",  // no TYPE
        "# TYPE x counter\nx{a=\"1\"} one\n",  // value not a number
        "# TYPE 1x counter\n",  // bad name
        "# TYPE x counter\nx{1a=\"1\"} 1\n",  // bad label name
        "# TYPE x counter\nx{a=1} 1\n",  // unquoted label value
        "# TYPE x counter\nx{a=\"\\q\"} 1\n",  // bad escape
        "# TYPE x gauge\nx 1",  // no final newline
        "# a plain comment\n",  // neither HELP nor TYPE
        "# TYPE x counter\nx 1\nx 2\n",  // duplicate series
        "# TYPE x counter\nx -1\n",  // negative counter
        "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n",  // not cumulative
    ])
    func theTestParserIsStrict(text: String) {
        #expect(throws: PrometheusExposition.ParseError.self) { try PrometheusExposition(text) }
    }
}
