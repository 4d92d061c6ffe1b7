// TileHTTP's HTTPRequestParser on what a browser sends for map tiles: one keep-alive GET with
// the usual dozen headers, and a pipelined batch of 16 arriving in one read. One parser serves
// the whole run, as the server keeps one per connection (its buffer keeps its capacity).
import Benchmark
import BenchmarkFixtures
import TileHTTP

let benchmarks: @Sendable () -> Void = {
    Fixtures.configureSuite()
    let single = Fixtures.browserRequest("/world/3/4/2.png")
    let pipelined = (0 ..< 16).flatMap { Fixtures.browserRequest("/world/3/\($0 % 8)/\($0 / 8).png") }

    Benchmark("Parse: tile GET, browser headers", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var parser = HTTPRequestParser()
        for _ in benchmark.scaledIterations {
            parser.append(single)
            guard let request = try parser.next() else { fatalError("the request did not parse whole") }
            blackHole(request)
        }
    }

    Benchmark("Parse: 16 pipelined tile GETs (per batch)") { benchmark in
        var parser = HTTPRequestParser()
        for _ in benchmark.scaledIterations {
            parser.append(pipelined)
            for _ in 0 ..< 16 {
                guard let request = try parser.next() else { fatalError("a pipelined request did not parse whole") }
                blackHole(request)
            }
        }
    }
}
