// Four settings of the configuration file, each shown to take effect on a live `tilelayer serve`:
// `limits.headerFields`, `limits.bodyBytes`, `timeouts.idleSeconds` and `timeouts.answerSeconds`,
// each set far from its default so that a setting the server ignored fails its check.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Sockets
import TestHTTPClient
import Testing
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct ServerSettingsProcessTests {
    let folder = TemporaryFolder()
    /// A client read waits this long: above the 1 s the settings give on a loaded machine, below
    /// the defaults (idle 60 s, answer 30 s) that a setting the server ignored leaves.
    static let boundSeconds = 6

    func serve(transport: IOTransport, upstreamPort: Int) throws -> ServeProcess {
        folder.write("serve.yml", Array("""
        server:
          host: 127.0.0.1
          port: 0
          transport: \(transport.rawValue)
          adminToken: s3cret
          cors: "*"
          limits: {headerFields: 8, bodyBytes: 10}
          timeouts: {idleSeconds: 1, answerSeconds: 1}
          log: {level: notice, access: false}
        layers:
          - {name: world, default: true, source: {type: directory, path: \(Fixtures.worldFolder)}}
          - name: slow
            source: {type: url, template: "http://127.0.0.1:\(upstreamPort)/{z}/{x}/{y}.png", timeoutSeconds: 20}
            cache: {memory: false}
        """.utf8))
        return try ServeProcess(config: folder.path + "/serve.yml")
    }

    @Test(arguments: IOTransport.available)
    func headerFieldsBodyBytesIdleAndAnswerSecondsTakeEffect(transport: IOTransport) async throws {
        let upstream = try LiveServer(responder: TestUpstream(delay: 10))  // slower than answerSeconds
        let serve = try serve(transport: transport, upstreamPort: upstream.port)

        // limits.headerFields: 8 (default 100). Host and seven more fields pass; a ninth is 431.
        let fields = (1 ... 8).map { "X-Field-\($0): \($0)" }
        #expect(try RawHTTPClient(port: serve.port).request("/healthz", headers: Array(fields.prefix(7)))?.status == 200)
        let crowded = try RawHTTPClient(port: serve.port, timeoutSeconds: Self.boundSeconds)
        #expect(crowded.request("/healthz", headers: fields)?.status == 431)

        // limits.bodyBytes: 10 (default 16 KiB). An admin route takes 10 bytes; 11 are 413.
        let admin = ["Authorization: Bearer s3cret"]
        let small = try RawHTTPClient(port: serve.port)
        small.send("POST /admin/layers/world/clear-cache HTTP/1.1\r\nHost: x\r\n\(admin[0])\r\nContent-Length: 10\r\n\r\n0123456789")
        #expect(small.readResponse()?.status == 204)
        let large = try RawHTTPClient(port: serve.port)
        large.send("POST /admin/layers/world/clear-cache HTTP/1.1\r\nHost: x\r\n\(admin[0])\r\nContent-Length: 11\r\n\r\n0123456789A")
        let refused = large.readResponse()
        #expect(refused?.status == 413, "\(refused.map { "\($0.status) \($0.text)" } ?? "no answer")")

        // timeouts.idleSeconds: 1 (default 60). A keep-alive connection left idle is closed in order.
        let idle = try RawHTTPClient(port: serve.port, timeoutSeconds: Self.boundSeconds)
        #expect(idle.request("/0/0/0.png")?.status == 200)
        #expect(idle.ending() == .endOfFile, "closed within \(Self.boundSeconds) s, with nothing sent")

        // timeouts.answerSeconds: 1 (default 30). An upstream 10 s away: the tile's own 503 (its
        // deadline comes before the connection's, so it carries the layer's CORS header) with
        // Retry-After, then a close.
        let waiting = try RawHTTPClient(port: serve.port, timeoutSeconds: Self.boundSeconds)
        let late = waiting.request("/slow/1/0/0.png", headers: ["Origin: https://app.example.org"])
        #expect(late?.status == 503, "\(late.map { "\($0.status) \($0.text)" } ?? "no answer within \(Self.boundSeconds) s")")
        #expect(late?.header("Retry-After") != nil)
        #expect(late?.header("Access-Control-Allow-Origin") == "*", "the connection's 503, not the tile's: \(late?.text ?? "")")
        #expect(waiting.ending() == .endOfFile)

        serve.signal(SIGKILL)
        _ = serve.waitForExit(seconds: 5)
        await upstream.stop()
    }
}
