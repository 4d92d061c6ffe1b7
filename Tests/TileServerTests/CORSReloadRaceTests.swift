// A reload that changes `server.cors` while requests for missing tiles are answered: every
// answer carries the CORS header of the state its lookup read, with that state's layer settings
// (here its maxAge), never the CORS of the state swapped in meanwhile (5f98268's change).

import Foundation
import Sockets
import Synchronization
import TestHTTPClient
import Testing
import TileHTTP
@testable import TileProviders
@testable import TileServer
import TestThreads

/// A source with no tile anywhere whose reads wait, while `held`, until the test lets them go.
private final class GatedEmptySource: SyncTileProvider, Sendable {
    let held = Atomic<Bool>(false)
    let entered = Atomic<Int>(0)

    func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
        entered.add(1, ordering: .relaxed)
        while held.load(ordering: .relaxed) { usleep(1_000) }
        return .noTile
    }
}

/// What the streaming clients saw, shared with the reloader.
private final class Tally: Sendable {
    let reloading = Atomic<Bool>(true)
    let mixed = Mutex<[String]>([])
    let answered = Atomic<Int>(0)
}

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct CORSReloadRaceTests {
    let folder = TemporaryFolder()
    private let source = GatedEmptySource()

    /// One whole state: its CORS origin and the maxAge of its layers.
    struct State: Hashable, CustomStringConvertible {
        let origin: String
        let maxAge: Int
        var description: String { "\(origin) max-age=\(maxAge)" }
    }

    static let a = State(origin: "https://a.example", maxAge: 1001)
    static let b = State(origin: "https://b.example", maxAge: 2002)
    /// "No tile" in each form, from the worker-side source and from a directory's missing file.
    static let layers = ["gated404", "gated204", "gatedblank", "dir404", "dir204", "dirblank"]

    var registry: SourceRegistry {
        var registry = SourceRegistry()
        registry.register("gated") { [source] _, _ in .sync(source) }
        return registry
    }

    func configuration(_ state: State) throws -> Configuration {
        let empty = folder.path + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let forms = [("404", "404"), ("204", "\"204\""), ("blank", "transparent")]
        let layers = forms.map { name, empty in
            "  - {name: gated\(name), source: {type: gated}, maxZoom: 6, maxAge: \(state.maxAge), emptyTile: \(empty)}"
        } + forms.map { name, emptyTile in
            "  - {name: dir\(name), source: {type: directory, path: \(empty)}, maxZoom: 6, maxAge: \(state.maxAge), emptyTile: \(emptyTile)}"
        }
        return try Configuration.parse(yaml: """
        server: {cors: "\(state.origin)"}
        layers:
        \(layers.joined(separator: "\n"))
        """, file: folder.path + "/t.yml", registry: registry)
    }

    func service(_ state: State) throws -> TileService {
        TileService(state: try ServiceState(configuration: configuration(state), registry: registry, logger: Fixtures.logger),
                    logger: Fixtures.logger)
    }

    /// The state an answer's headers tell, nil when they mix two (or miss one).
    static func state(of headers: (String) -> String?) -> State? {
        guard let origin = headers("Access-Control-Allow-Origin"), let caching = headers("Cache-Control"),
              let maxAge = caching.split(separator: "=").last.flatMap({ Int($0) }) else { return nil }
        let state = State(origin: origin, maxAge: maxAge)
        return [a, b].contains(state) ? state : nil
    }

    /// Requests whose source read is held while the reload happens: each is answered with the
    /// CORS of the state it was looked up in, though the service holds the other one by then.
    @Test func anAnswerFinishedAfterAReloadKeepsTheCORSOfItsLookup() async throws {
        let service = try service(Self.a)
        source.held.store(true, ordering: .relaxed)
        let held = ["gated404", "gated204", "gatedblank"].map { "/\($0)/2/1/1.png" }
        async let answers = withThrowingTaskGroup(of: (String, HTTPResponse).self) { group in
            for path in held { group.addTask { (path, try await service.get(path)) } }
            return try await group.reduce(into: [String: HTTPResponse]()) { $0[$1.0] = $1.1 }
        }
        let allIn = try await eventually { source.entered.load(ordering: .relaxed) == held.count }
        _ = try service.reload(configuration(Self.b), registry: registry)
        source.held.store(false, ordering: .relaxed)
        #expect(allIn, "the three reads were held before the reload")
        for (path, response) in try await answers {
            let seen = Self.state(of: { response.headers[HTTPHeaderName($0)] })
            #expect(seen == Self.a, "\(path): \(response.status.code) \(response.headers)")
        }
        for path in held {
            let after = try await service.get(path.replacingOccurrences(of: "/2/1/1", with: "/2/2/2"))
            #expect(Self.state(of: { after.headers[HTTPHeaderName($0)] }) == Self.b, "\(path) after the reload")
        }
    }

    /// Clients stream requests for missing tiles of every layer over a live socket while the
    /// CORS setting (and the layers' maxAge) is reloaded back and forth: every answer is one
    /// whole state's.
    @Test(arguments: IOTransport.available)
    func answersStreamedDuringReloadsEachCarryOneWholeState(transport: IOTransport) async throws {
        let service = try service(Self.a)
        let live = try LiveServer(responder: service) { $0.transport = transport }
        let tally = Tally()

        let port = live.port
        let registry = self.registry
        let states = [try configuration(Self.b), try configuration(Self.a)]

        @Sendable func stream(client number: Int) throws {
            let client = try RawHTTPClient(port: port)
            var request = number
            repeat {
                request += 1
                let layer = Self.layers[request % Self.layers.count]
                let z = 1 + request % 6
                let path = "/\(layer)/\(z)/\(request % (1 << z))/\((request / 7) % (1 << z)).png"
                guard let response = client.request(path) else {
                    tally.mixed.withLock { $0.append("\(path): no answer") }
                    return
                }
                tally.answered.add(1, ordering: .relaxed)
                if Self.state(of: response.header) == nil {
                    tally.mixed.withLock { $0.append("\(path): \(response.status) \(client.lastHead)") }
                }
            } while tally.reloading.load(ordering: .relaxed)
        }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 0 ..< 4 { group.addTask { try stream(client: number * 1000) } }
            group.addTask {
                defer { tally.reloading.store(false, ordering: .relaxed) }
                for round in 0 ..< 40 {
                    _ = try service.reload(states[round % 2], registry: registry)
                    usleep(5_000)  // pacing only: requests run between the reloads
                }
            }
            try await group.waitForAll()
        }
        await live.stop()
        #expect(tally.mixed.withLock { $0 }.isEmpty, "answers mixing two states: \(tally.mixed.withLock { $0.prefix(5) })")
        #expect(tally.answered.load(ordering: .relaxed) > 0)
    }
}
