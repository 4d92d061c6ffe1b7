// TileServer in-process: the router on a tile path, the ETag content hash, a whole hot tile
// request (bytes to response, no sockets) and a rendered static view. The service serves the
// shipped tiles/world pyramid with its memory cache; every benchmark's tiles are cached by its
// setup, so what is measured is the hot path, not the disk.
import Benchmark
import BenchmarkFixtures
import Hashing
import Logging
import TileHTTP
import TileServer

/// A service over tiles/world (the default layer, `world`), logging nothing.
func makeService() -> TileService {
    let logger = Logger(label: "benchmarks") { _ in SwiftLogNoOpLogHandler() }
    let yaml = """
        server: {port: 8080, cors: "*"}
        layers:
          - {name: world, default: true, source: {type: directory, path: "\(Fixtures.worldFolder)"}, maxZoom: 3}
        """
    do {
        let configuration = try Configuration.parse(yaml: yaml, file: Fixtures.repositoryRoot + "/Benchmarks/benchmarks.yml")
        return TileService(state: try ServiceState(configuration: configuration, logger: logger), logger: logger)
    } catch {
        fatalError("benchmarks: \(error)")
    }
}

/// `count` bytes of a fixed pseudo-random sequence (the hash's speed does not depend on them).
func pseudoRandomBytes(_ count: Int) -> [UInt8] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0 ..< count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
    }
}

/// The one request in `bytes`, parsed.
func parseOne(_ bytes: [UInt8]) throws -> HTTPRequest {
    var parser = HTTPRequestParser()
    parser.append(bytes)
    guard let request = try parser.next() else { fatalError("benchmarks: the request did not parse whole") }
    return request
}

/// The service's answer when it is ready at once (a cache hit), else a stop: a miss would mean
/// the setup did not warm the cache and the figures would not be the hot path's.
func answerNow(_ service: TileService, _ request: HTTPRequest) -> HTTPResponse {
    guard let response = service.respond(to: request, completion: { _ in }),
          response.status == .ok else {
        fatalError("benchmarks: \(request.target) was not answered 200 from the cache")
    }
    return response
}

/// Answers `request` once (its tiles into the memory cache); stops unless the answer is 200.
func warm(_ service: TileService, _ request: HTTPRequest) async {
    let status = await service.response(to: request).status
    guard status == .ok else { fatalError("benchmarks: \(request.target) answered \(status) in the warm-up") }
}

let benchmarks: @Sendable () -> Void = {
    Fixtures.configureSuite()
    let service = makeService()
    let tileBytes = Fixtures.browserRequest("/world/3/4/2.png")
    let tileRequest: HTTPRequest
    do { tileRequest = try parseOne(tileBytes) } catch { fatalError("benchmarks: \(error)") }

    Benchmark("Router.match: /world/3/4/2.png", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let segments = tileRequest.pathSegments
        for _ in benchmark.scaledIterations {
            blackHole(Router.match(segments))
        }
    }

    for (label, size) in [("20 KB", 20 * 1024), ("64 KB", 64 * 1024)] {
        let bytes = pseudoRandomBytes(size)
        Benchmark("ETag: ContentHash.etag of \(label)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(ContentHash.etag(of: bytes))
            }
        }
    }

    Benchmark("Hot tile: TileService.respond (cache hit)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(answerNow(service, tileRequest))
        }
    } setup: {
        await warm(service, tileRequest)
    }

    Benchmark("Hot tile: parse request bytes + TileService.respond", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var parser = HTTPRequestParser()
        for _ in benchmark.scaledIterations {
            parser.append(tileBytes)
            guard let request = try parser.next() else { fatalError("benchmarks: the request did not parse whole") }
            blackHole(answerNow(service, request))
        }
    } setup: {
        await warm(service, tileRequest)
    }

    let staticRequest: HTTPRequest
    do {
        staticRequest = try HTTPRequest(method: .get, target: "/static/world/10,20,2.5/1024x768.png",
                                        headers: [.host: "localhost:8080"])
    } catch { fatalError("benchmarks: \(error)") }
    Benchmark("Static view: 1024x768 PNG, tiles cached (render + encode)") { benchmark in
        for _ in benchmark.scaledIterations {
            let response = await service.response(to: staticRequest)
            guard response.status == .ok else { fatalError("benchmarks: static view answered \(response.status)") }
            blackHole(response)
        }
    } setup: {
        await warm(service, staticRequest)
    }
}
