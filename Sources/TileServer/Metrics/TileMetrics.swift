// Metrics: tilelayer's counters through swift-metrics, rendered by swift-prometheus at
// `/metrics`. Series are labelled by route, status, layer and failure kind only (bounded sets).

import CoreMetrics
import Prometheus
import TileHTTP
import TileProviders

/// Names, buckets and help texts of tilelayer's metrics, and the factory that makes them.
public enum TileMetrics {
    /// Prefix of the HTTP server's metrics (`tilelayer_http_requests_total`, …).
    public static let httpNamespace = "tilelayer_http"

    /// Latency buckets, seconds: a cache hit takes well under a millisecond, an upstream
    /// fetch or a render up to seconds.
    public static let latencyBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2500), .seconds(5),
    ]

    static let cacheHits = "tilelayer_cache_hits_total"
    static let cacheMisses = "tilelayer_cache_misses_total"
    static let cacheCoalesced = "tilelayer_cache_coalesced_total"
    static let cacheStoredBytes = "tilelayer_cache_stored_bytes_total"
    static let cacheEvictions = "tilelayer_cache_evictions_total"
    static let cacheBytes = "tilelayer_cache_bytes"
    static let cacheEntries = "tilelayer_cache_entries"
    static let cacheCapacity = "tilelayer_cache_capacity_bytes"
    static let providerCalls = "tilelayer_provider_calls_total"
    static let renders = "tilelayer_renders_total"
    static let tilesRejected = "tilelayer_tiles_rejected_total"
    static let shed = "tilelayer_requests_shed_total"
    static let diskFailures = "tilelayer_disk_failures_total"
    static let descriptorsOpen = "tilelayer_descriptors_open"
    static let descriptorsLimit = "tilelayer_descriptors_limit"
    static let descriptorRefusals = "tilelayer_descriptor_refusals_total"
    static let descriptorsExhausted = "tilelayer_descriptors_exhausted_total"
    static let acceptPauses = "tilelayer_accept_pauses_total"
    static let redisHits = "tilelayer_redis_hits_total"
    static let redisMisses = "tilelayer_redis_misses_total"
    static let redisStored = "tilelayer_redis_stored_total"
    static let redisCorrupt = "tilelayer_redis_corrupt_total"
    static let redisErrors = "tilelayer_redis_errors_total"

    /// A swift-metrics factory over `registry`, with tilelayer's latency buckets for timers.
    public static func makeFactory(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = latencyBuckets
        return factory
    }

    /// The HTTP server's metrics, made by `factory`, named `tilelayer_http_…`.
    public static func httpServerMetrics(factory: any MetricsFactory) -> HTTPServerMetrics {
        HTTPServerMetrics(factory: factory, namespace: httpNamespace, latencyBuckets: latencyBuckets)
    }

    /// `# HELP` text by metric name (swift-metrics carries none; `/metrics` adds them).
    static let help: [String: String] = [
        "\(httpNamespace)_requests_total": "HTTP requests answered, by route and status.",
        "\(httpNamespace)_request_duration_seconds": "Time from a parsed request to its queued answer, by route.",
        "\(httpNamespace)_response_bytes_total": "Bytes of answers (head and body) queued to clients, by route.",
        "\(httpNamespace)_open_connections": "Client connections open now.",
        "\(httpNamespace)_connections_total": "Client connections accepted.",
        "\(httpNamespace)_connections_rejected_total": "Client connections answered 503 at the connection limit.",
        cacheHits: "Tile lookups answered from the memory cache, by layer.",
        cacheMisses: "Tile lookups that started a fill, by layer.",
        cacheCoalesced: "Tile lookups that joined a fill under way, by layer.",
        cacheStoredBytes: "Bytes charged to the memory cache for stored tiles (body and bookkeeping), by layer.",
        cacheEvictions: "Entries evicted from the memory cache to stay within its capacity.",
        cacheBytes: "Bytes held in the memory cache now.",
        cacheEntries: "Entries held in the memory cache now.",
        cacheCapacity: "Capacity of the memory cache, bytes.",
        providerCalls: "Native tile requests made to a layer's source, by layer.",
        renders: "Derived tiles (@2x, downscaled) made and composite tiles drawn, by layer.",
        tilesRejected: "Tiles a source gave that failed validation (not the layer's format, or damaged: cut short, noise, a bad CRC), answered 502 and never kept, by layer and reason.",
        shed: "Cold tile and view requests refused at once with 503 while the workers or render threads were too far behind (server.workers.maxWaitSeconds), by layer.",
        diskFailures: "Disk-tier failures, by layer and kind: read and write (the tier turns off for a minute and the layer carries on memory-only; ENOSPC and EROFS are write failures), corrupt (a file that failed its header or checksum test, deleted and fetched again).",
        descriptorsOpen: "File descriptors open, as the server counts them (those it tracks, and the rest as last counted in /proc/self/fd).",
        descriptorsLimit: "The open-file limit (soft RLIMIT_NOFILE); the server keeps a reserve below it free.",
        descriptorRefusals: "Connections answered 503 and tile files not opened (503) because free descriptors were within the reserve, by what.",
        descriptorsExhausted: "Calls that failed with EMFILE or ENFILE (accept, opening a tile file).",
        acceptPauses: "Times accepting paused for 0.1 s for want of file descriptors (clients wait in the listen backlog).",
        redisHits: "Memory misses answered from the shared Redis tier, by layer.",
        redisMisses: "Memory misses the shared Redis tier did not hold (or held expired), by layer.",
        redisStored: "Tiles and no-tile answers written to the shared Redis tier, by layer.",
        redisCorrupt: "Values in the shared Redis tier that failed their header or checksum test (deleted, refetched), by layer.",
        redisErrors: "Redis commands that failed, by kind (connect, timeout, io, protocol, server, backoff, dropped).",
        UpstreamMetrics.requestsName: "Requests sent to upstream tile servers, by layer.",
        UpstreamMetrics.failuresName: "Failed upstream requests, by layer and kind (timeout, connect, status5xx, other).",
    ]
}
