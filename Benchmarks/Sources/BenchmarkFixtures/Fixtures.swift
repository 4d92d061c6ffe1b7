// What the micro benchmark suites (Benchmarks/Benchmarks/*) share: where the repository's tiles
// are, the request a browser sends for a tile, and the metrics every benchmark records.
import Benchmark
import Foundation

public enum Fixtures {
    /// The repository root: this file is `<root>/Benchmarks/Sources/BenchmarkFixtures/Fixtures.swift`.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The shipped world pyramid (zooms 0-3, 256 px PNG tiles).
    public static let worldFolder = repositoryRoot + "/tiles/world"

    /// The PNG bytes of world tile z/x/y; stops the suite when the file is missing.
    public static func worldTile(_ z: Int, _ x: Int, _ y: Int) -> [UInt8] {
        let path = "\(worldFolder)/\(z)/\(x)/\(y).png"
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("benchmarks: cannot read \(path)") }
        return [UInt8](data)
    }

    /// A tile GET as a current Firefox sends it to a tile server on localhost (keep-alive).
    public static func browserRequest(_ target: String) -> [UInt8] {
        Array((
            "GET \(target) HTTP/1.1\r\n"
            + "Host: localhost:8080\r\n"
            + "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0\r\n"
            + "Accept: image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5\r\n"
            + "Accept-Language: en-US,en;q=0.5\r\n"
            + "Accept-Encoding: gzip, deflate, br, zstd\r\n"
            + "Referer: http://localhost:8080/\r\n"
            + "Connection: keep-alive\r\n"
            + "Sec-Fetch-Dest: image\r\n"
            + "Sec-Fetch-Mode: no-cors\r\n"
            + "Sec-Fetch-Site: same-origin\r\n"
            + "\r\n"
        ).utf8)
    }

    /// Wall clock, throughput, mallocs (malloc-interposer) and instructions (perf counters; 0
    /// where the kernel refuses them) for every benchmark of the suite, and a few warm-up runs.
    /// A benchmark's own `.init(scalingFactor:)` starts from these.
    public static func configureSuite() {
        Benchmark.defaultConfiguration = .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
            warmupIterations: 5,
            maxDuration: .seconds(2)
        )
    }
}
