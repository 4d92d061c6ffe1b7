import Synchronization

extension HTTPServerMetrics {
    /// Appends the request, byte and latency families, summed over the event loops, in the
    /// Prometheus text format 0.0.4 (the layout swift-prometheus writes): requests by route and
    /// status, bytes and the latency histogram (seconds) by route. Nothing before the first request.
    public func emit(into buffer: inout [UInt8]) {
        var requests: [String: [Int: Int]] = [:]
        var routes: [String: RouteTotals] = [:]
        for one in series.withLock({ $0 }) {
            let count = one.requests.load(ordering: .relaxed)
            requests[one.route, default: [:]][one.status, default: 0] += count
            var totals = routes[one.route] ?? RouteTotals(bucketCount: bucketBounds.count + 1)
            totals.add(one, count: count)
            routes[one.route] = totals
        }
        guard !routes.isEmpty else { return }
        var text = "# TYPE \(requestsName) counter\n"
        for route in requests.keys.sorted() {
            for (status, count) in requests[route]!.sorted(by: { $0.key < $1.key }) {
                text += "\(requestsName){route=\"\(route)\",status=\"\(status)\"} \(count)\n"
            }
        }
        text += "# TYPE \(bytesName) counter\n"
        for route in routes.keys.sorted() {
            text += "\(bytesName){route=\"\(route)\"} \(routes[route]!.bytes)\n"
        }
        text += "# TYPE \(durationName) histogram\n"
        for route in routes.keys.sorted() {
            let totals = routes[route]!
            var cumulative = 0
            for (bound, count) in zip(bucketBounds, totals.buckets) {
                cumulative += count
                text += "\(durationName)_bucket{route=\"\(route)\",le=\"\(Double(bound) / 1e9)\"} \(cumulative)\n"
            }
            // The buckets' own total, so +Inf never falls below a bucket while requests come in.
            let all = cumulative + totals.buckets.last!
            text += "\(durationName)_bucket{route=\"\(route)\",le=\"+Inf\"} \(all)\n"
            text += "\(durationName)_sum{route=\"\(route)\"} \(Double(totals.nanoseconds) / 1e9)\n"
            text += "\(durationName)_count{route=\"\(route)\"} \(all)\n"
        }
        buffer.append(contentsOf: text.utf8)
    }
}

/// One route's sums over statuses and loops.
private struct RouteTotals {
    var requests = 0
    var bytes = 0
    var nanoseconds = 0
    var buckets: [Int]

    init(bucketCount: Int) {
        buckets = [Int](repeating: 0, count: bucketCount)
    }

    mutating func add(_ series: HTTPRequestSeries, count: Int) {
        requests += count
        bytes += series.bytes.load(ordering: .relaxed)
        nanoseconds += series.nanoseconds.load(ordering: .relaxed)
        for index in buckets.indices { buckets[index] += series.buckets[index].value.load(ordering: .relaxed) }
    }
}
