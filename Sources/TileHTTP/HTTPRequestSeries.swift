import Synchronization

/// The requests one event loop answered with one route label and status: counted by that loop
/// alone with relaxed atomic adds (no lock, no other thread writing these words), read by a
/// scrape on any thread.
final class HTTPRequestSeries: Sendable {
    let route: String
    let status: Int
    let requests = Atomic<Int>(0)
    let bytes = Atomic<Int>(0)
    let nanoseconds = Atomic<Int>(0)
    /// Upper bounds of the latency histogram's buckets, nanoseconds.
    let bucketBounds: [Int]
    /// Requests at most `bucketBounds[i]` long (not cumulative; the last one counts the longer ones).
    let buckets: [AtomicCount]

    init(route: String, status: Int, bucketBounds: [Int]) {
        self.route = route
        self.status = status
        self.bucketBounds = bucketBounds
        buckets = (0 ... bucketBounds.count).map { _ in AtomicCount() }
    }

    /// Counts one request.
    func record(bytes: Int, nanoseconds: Int) {
        requests.add(1, ordering: .relaxed)
        self.bytes.add(bytes, ordering: .relaxed)
        self.nanoseconds.add(nanoseconds, ordering: .relaxed)
        var bucket = 0
        while bucket < bucketBounds.count && nanoseconds > bucketBounds[bucket] { bucket += 1 }
        buckets[bucket].value.add(1, ordering: .relaxed)
    }
}

/// One atomic count (`Atomic` cannot live in an array).
final class AtomicCount: Sendable {
    let value = Atomic<Int>(0)
}

/// An event loop's own series: it finds the one for a route and status in a short list only
/// it touches, and makes (and registers with `HTTPServerMetrics`) the first of each.
final class HTTPLoopMetrics: @unchecked Sendable {
    // `@unchecked Sendable`: `known` is read and written only on the owning loop's thread; the
    // series in it are Sendable and are what other threads see (through the server's list).
    private var known: [HTTPRequestSeries] = []
    private let server: HTTPServerMetrics

    init(server: HTTPServerMetrics) {
        self.server = server
    }

    /// Counts one answered request (on the loop's thread).
    func record(route: String?, status: Int, bytes: Int, nanoseconds: UInt64) {
        let route = route ?? HTTPServerMetrics.otherRoute
        let series = known.first { $0.status == status && $0.route == route } ?? make(route: route, status: status)
        series.record(bytes: bytes, nanoseconds: Int(clamping: nanoseconds))
    }

    private func make(route: String, status: Int) -> HTTPRequestSeries {
        let series = HTTPRequestSeries(route: route, status: status, bucketBounds: server.bucketBounds)
        known.append(series)
        server.register(series)
        return series
    }
}
