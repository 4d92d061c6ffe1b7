// The disk tier in a folder the server may not write, checked on a real `tilelayer serve` process.
// Root writes into a mode-0500 folder anyway (CAP_DAC_OVERRIDE), and CI runs as root, so the
// server runs without that capability: `setpriv` drops it (and its siblings) from the bounding
// set, which for a root process also removes it from the permitted and effective sets at exec.
// The server stays uid 0, so it still reads everything root owns (the binary, the configuration).

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestHTTPClient
import Testing
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct DiskTierProcessTests {
    let folder = TemporaryFolder()

    /// What makes a mode-0500 folder read-only for this process's children too: as root, the
    /// capabilities that bypass file permissions are dropped; otherwise nothing is needed.
    static var withoutPermissionOverride: [String] {
        guard geteuid() == 0 else { return [] }
        return ["/usr/bin/setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner", "--"]
    }

    @Test func aReadOnlyFolderDegradesToMemoryOnlyWithOneLogLine() throws {
        let cache = folder.path + "/cache"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        #expect(chmod(cache, 0o500) == 0)
        defer { chmod(cache, 0o700) }
        folder.write("serve.yml", Array("""
        server:
          host: 127.0.0.1
          port: 0
          log: {level: notice, access: false}
        layers:
          - name: d
            source: {type: debug}
            maxZoom: 5
            cache: {disk: \(cache)}
        """.utf8))
        let serve = try ServeProcess(config: folder.path + "/serve.yml", launcher: Self.withoutPermissionOverride)
        let client = try RawHTTPClient(port: serve.port)
        #expect(client.request("/d/1/0/0.png")?.status == 200)
        #expect(serve.waitForLog(containing: "disk cache failed", seconds: 10), "the write into the read-only folder failed")
        // The tier is off now: the next tiles are served from memory, and the failure is not logged again.
        #expect(client.request("/d/1/1/0.png")?.status == 200)
        #expect(client.request("/d/2/1/1.png")?.status == 200)
        #expect(client.request("/d/1/0/0.png")?.status == 200)
        serve.signal(SIGTERM)
        #expect(serve.waitForExit(seconds: 15) == 0)
        let failures = serve.log.components(separatedBy: "\n").filter { $0.contains("disk cache failed") }
        #expect(failures.count == 1, "\(serve.log)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).isEmpty, "nothing was written")
    }
}
