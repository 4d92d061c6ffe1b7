import Dispatch
import Testing
@testable import TileHTTP

/// Request series counted per event loop and summed by a scrape.
@Suite struct HTTPServerMetricsTests {
    private func lines(_ metrics: HTTPServerMetrics) -> [String: String] {
        var buffer: [UInt8] = []
        metrics.emit(into: &buffer)
        var values: [String: String] = [:]
        for line in String(decoding: buffer, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            values[String(parts[0])] = String(parts[1])
        }
        return values
    }

    @Test func nothingBeforeTheFirstRequest() {
        var buffer: [UInt8] = []
        HTTPServerMetrics(namespace: "t").emit(into: &buffer)
        #expect(buffer.isEmpty)
    }

    @Test func loopsAreSummedByRouteAndStatus() {
        let metrics = HTTPServerMetrics(namespace: "t", latencyBuckets: [.milliseconds(1), .milliseconds(10)])
        let first = metrics.makeLoopMetrics()
        let second = metrics.makeLoopMetrics()
        first.record(route: "tile", status: 200, bytes: 100, nanoseconds: 500_000)
        first.record(route: "tile", status: 200, bytes: 50, nanoseconds: 5_000_000)
        second.record(route: "tile", status: 200, bytes: 10, nanoseconds: 20_000_000)
        second.record(route: "tile", status: 304, bytes: 7, nanoseconds: 1_000_000)
        second.record(route: nil, status: 404, bytes: 3, nanoseconds: 1)
        let values = lines(metrics)
        #expect(values["t_requests_total{route=\"tile\",status=\"200\"}"] == "3")
        #expect(values["t_requests_total{route=\"tile\",status=\"304\"}"] == "1")
        #expect(values["t_requests_total{route=\"other\",status=\"404\"}"] == "1")
        #expect(values["t_response_bytes_total{route=\"tile\"}"] == "167")
        // Cumulative buckets: ≤1 ms: 0.5 ms and 1 ms; ≤10 ms: and 5 ms; +Inf: and 20 ms.
        #expect(values["t_request_duration_seconds_bucket{route=\"tile\",le=\"0.001\"}"] == "2")
        #expect(values["t_request_duration_seconds_bucket{route=\"tile\",le=\"0.01\"}"] == "3")
        #expect(values["t_request_duration_seconds_bucket{route=\"tile\",le=\"+Inf\"}"] == "4")
        #expect(values["t_request_duration_seconds_count{route=\"tile\"}"] == "4")
        #expect(values["t_request_duration_seconds_sum{route=\"tile\"}"] == "0.0265")
    }

    @Test func countsFromManyThreadsAreAllSeen() {
        let metrics = HTTPServerMetrics(namespace: "t")
        let loops = (0 ..< 4).map { _ in metrics.makeLoopMetrics() }
        // Each loop's series is written by one thread at a time, as on an event loop.
        DispatchQueue.concurrentPerform(iterations: loops.count) { index in
            for _ in 0 ..< 10_000 { loops[index].record(route: "tile", status: 200, bytes: 1, nanoseconds: 1) }
        }
        #expect(lines(metrics)["t_requests_total{route=\"tile\",status=\"200\"}"] == "40000")
    }
}
