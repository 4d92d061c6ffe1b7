// The built binary under a low open-file limit and a crowd of clients (issue 56, failure 2).

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import TestHTTPClient
import Testing
@testable import TileServer
import TestThreads

/// Issue 56, failure 2: with `ulimit -n 64` and 200 clients the server died with SIGILL inside
/// libdispatch (which opens `/proc/<tid>/stat` once a second for its worker threads and traps
/// when it cannot). Now it keeps a reserve of free descriptors: clients beyond it are answered
/// 503 with `Retry-After` or wait in the backlog, work that would open a file within it is a
/// 503 too, and the process lives through round after round.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(3))) struct DescriptorBudgetTests {
    let folder = TemporaryFolder()
    static let limit = 64
    static let clients = 200
    static let rounds = 5

    private func writeConfig(upstreamPort: Int) -> String {
        let path = folder.path + "/fd.yml"
        let yaml = """
        server:
          host: 127.0.0.1
          port: 0
          log: {level: notice, access: false}
        layers:
          - name: world
            default: true
            source: {type: directory, path: \(Fixtures.worldFolder)}
            cache: {memory: false}
          - name: debug
            source: {type: debug}
            maxZoom: 22
          - name: up
            source: {type: url, template: "http://127.0.0.1:\(upstreamPort)/{z}/{x}/{y}.png", timeoutSeconds: 5}
            maxZoom: 22
            cache: {memory: false}
        """
        _ = FileManager.default.createFile(atPath: path, contents: Data(yaml.utf8))
        return path
    }

    /// `count` clients at once, each on a connection and a thread of its own, asking `paths`
    /// in turn and holding their connection `hold` seconds; what each was answered (nil: not
    /// answered within a second, left in the backlog).
    static func crowd(port: Int, count: Int, paths: [String], hold: Double) -> [RawResponse?] {
        let answers = Mutex<[RawResponse?]>(Array(repeating: nil, count: count))
        let group = DispatchGroup()
        for index in 0 ..< count {
            group.enter()
            Thread {
                defer { group.leave() }
                guard let client = try? RawHTTPClient(port: port, timeoutSeconds: 1) else { return }
                let answer = client.request(paths[index % paths.count])
                answers.withLock { $0[index] = answer }
                Thread.sleep(forTimeInterval: hold)
            }.start()
        }
        group.wait()
        return answers.withLock { $0 }
    }

    @Test func aCrowdUnderALowDescriptorLimitGets503sNotACrash() async throws {
        let upstream = try LiveServer(responder: TestUpstream(delay: 0.2))
        let server = try ServeProcess(config: writeConfig(upstreamPort: upstream.port), openFileLimit: Self.limit)
        // Tiles read from files (opened per request: no memory cache), rendered on the workers
        // (debug tiles at high zoom, new each round) and fetched from an upstream (its deadline
        // timers run on Dispatch's global queues, whose threads libdispatch watches).
        var served = 0, refused = 0
        for round in 0 ..< Self.rounds {
            let paths = ["/world/2/1/1.png", "/up/18/\(round)/7.png", "/debug/18/\(round * 1000)/7.png", "/world/3/4/2.png",
                         "/up/18/\(round)/8.png", "/debug/18/\(round * 1000 + 1)/7.png"]
            let answers = Self.crowd(port: server.port, count: Self.clients, paths: paths, hold: 2.5)
            for answer in answers.compactMap({ $0 }) {
                switch answer.status {
                case 200: served += 1
                case 503:
                    refused += 1
                    #expect(answer.header("Retry-After") != nil)
                    #expect(answer.header("Cache-Control") == "no-store")
                default:
                    Issue.record("round \(round): \(answer.status) \(answer.text.prefix(200))")
                }
            }
            #expect(server.process.isRunning, "round \(round): the server died (status \(server.process.terminationStatus))")
            guard server.process.isRunning else { return }
        }
        #expect(served > 0)
        #expect(refused > 0, "a limit of \(Self.limit) with \(Self.clients) clients refuses some")
        // Served again once the crowd's connections are closed, and the pressure is in the metrics.
        let servedAgain = try await eventually {
            (try? RawHTTPClient(port: server.port, timeoutSeconds: 5))?.request("/world/0/0/0.png")?.status == 200
        }
        #expect(servedAgain)
        let client = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
        let page = try PrometheusExposition(try #require(client.request("/metrics")).text)
        #expect(page.sum("tilelayer_descriptor_refusals_total") + page.sum("tilelayer_accept_pauses_total") > 0)
        #expect(page.value("tilelayer_descriptors_limit") == Double(Self.limit))
        server.signal(SIGTERM)
        #expect(server.waitForExit(seconds: 10) == 0)
        await upstream.stop()
    }
}
