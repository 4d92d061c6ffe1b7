// A source read that hangs (a FIFO stands in for a hung disk) holds one worker, never an event
// loop: hot tiles keep being answered, and a full worker queue answers 503 at once.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Sockets
import TestHTTPClient
import Testing
import TileHTTP
@testable import TileServer
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct BlockingReadTests {
    let folder = TemporaryFolder()

    /// A layer `hung` whose tiles z=3 are FIFOs: opening one blocks until a writer comes.
    private func makeHungLayer(count: Int) -> [String] {
        (0 ..< count).map { x in
            let path = folder.path + "/hung/3/\(x)/0.png"
            try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            precondition(mkfifo(path, 0o600) == 0, "mkfifo failed")
            return path
        }
    }

    /// Unblocks every reader of the FIFOs (a writer opens and closes: readers see end-of-file).
    private func release(_ fifos: [String]) {
        for path in fifos {
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
    }

    @Test(arguments: IOTransport.available)
    func hungReadsDelayNoOtherRequest(transport: IOTransport) async throws {
        let fifos = makeHungLayer(count: 8)
        defer { release(fifos) }
        let service = try Fixtures.service(extraYAML: """
              - name: hung
                source: {type: directory, path: \(folder.path)/hung}
                cache: {memory: false}
            """, server: ", workers: {threads: 8, queue: 0}", folder: folder)
        // The hung reads wait for the rest of the test, which on a loaded machine (a sanitizer
        // build, tests in parallel) can pass the 30 s answer timeout: its 503 is not this test's.
        let live = try LiveServer(responder: service) {
            $0.transport = transport
            $0.answerTimeout = 600
        }
        defer { Task { await live.stop() } }

        // Warm the world tiles (memory hits from now on).
        let warm = try RawHTTPClient(port: live.port)
        for y in 0 ..< 4 { #expect(warm.request("/2/1/\(y).png")?.status == 200) }

        // The warm-up's workers go back to idle just after their answers: wait for that.
        #expect(try await eventually { service.workers.load.running == 0 })

        // Eight reads that hang, each on a connection of its own, fill the pool.
        var hung: [RawHTTPClient] = []
        for x in 0 ..< 8 {
            let client = try RawHTTPClient(port: live.port, timeoutSeconds: 10)
            client.send("GET /hung/3/\(x)/0.png HTTP/1.1\r\nHost: x\r\n\r\n")
            hung.append(client)
        }
        #expect(try await eventually { service.workers.load.running == 8 })

        // Hot tiles and pages are answered from the loops meanwhile (a 3 s receive timeout:
        // a stalled loop would leave these unanswered).
        let hot = try RawHTTPClient(port: live.port, timeoutSeconds: 3)
        for y in 0 ..< 4 {
            let response = try #require(hot.request("/2/1/\(y).png"))
            #expect(response.status == 200)
            #expect(response.body == Fixtures.worldTile(2, 1, y))
        }
        #expect(hot.request("/healthz")?.status == 200)

        // A tile made from others (a render's reads) needs a worker, and none is free with no
        // queue: 503 at once, not a stall.
        let busy = try #require(hot.request("/2/0/0@2x.png"))
        #expect(busy.status == 503)
        #expect(busy.header("Retry-After") != nil)
        #expect(busy.header("Cache-Control") == "no-store")

        // Released, the hung reads end (an empty FIFO holds no tile: 404), and the pool serves again.
        release(fifos)
        for client in hung { #expect(client.readResponse()?.status == 404) }
        #expect(try RawHTTPClient(port: live.port, timeoutSeconds: 20).request("/2/0/0@2x.png")?.status == 200)
        await live.stop()
    }
}
