// Kept tile files and connections share the process's open-file limit, in a real `tilelayer
// serve` under a small limit: while few connections are open the files take the descriptors
// `maxConnections` would otherwise hold back, and as connections come the files are given back.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestHTTPClient
import Testing
@testable import TileServer
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(2))) struct DescriptorSharingTests {
    let folder = TemporaryFolder()

    /// The server's open-file limit: 1,024 reserved leave 376 for connections and files.
    static let openFileLimit = 1400
    /// With the limit above, holding descriptors back for all of these would leave the files
    /// 126 (the budget before it was shared).
    static let maxConnections = 250
    static let tileCount = 200
    /// Connections opened beside the first: they leave the files 376 - 241 = 135.
    static let crowd = 240

    private static func path(_ index: Int) -> String { "/8/\(index / 16)/\(index % 16).png" }

    /// Descriptors `pid` has open on files under `root`.
    private static func filesOpen(by pid: Int32, under root: String) -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return descriptors.filter { descriptor in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")
            return target?.hasPrefix(root + "/") == true
        }.count
    }

    @Test func keptFilesTakeWhatConnectionsLeaveAndGiveItBack() async throws {
        for index in 0 ..< Self.tileCount { folder.write("tiles" + Self.path(index), Fixtures.worldTile(0, 0, 0)) }
        let root = URL(fileURLWithPath: folder.path + "/tiles").resolvingSymlinksInPath().path
        folder.write("serve.yml", Array("""
        server:
          host: 127.0.0.1
          port: 0
          limits: {maxConnections: \(Self.maxConnections)}
          log: {level: notice, access: false}
        layers:
          - name: t
            default: true
            source: {type: directory, path: \(root)}
            cache: {memory: false, openFileSeconds: 60}
        """.utf8))
        let serve = try ServeProcess(config: folder.path + "/serve.yml", openFileLimit: Self.openFileLimit)
        let pid = serve.process.processIdentifier
        let client = try RawHTTPClient(port: serve.port)
        let served = (0 ..< Self.tileCount).filter { client.request(Self.path($0))?.status == 200 }.count
        #expect(served == Self.tileCount)
        let keptWhileFew = Self.filesOpen(by: pid, under: root)
        #expect(keptWhileFew == Self.tileCount, "with one connection open every tile file stays kept")

        var crowd: [RawHTTPClient]? = try (0 ..< Self.crowd).map { _ in try RawHTTPClient(port: serve.port) }
        let shared = Self.openFileLimit - OpenFileBudget.reservedDescriptors
        let left = shared - 1 - Self.crowd
        var keptInCrowd = 0
        let gaveBack = try await eventually {
            keptInCrowd = Self.filesOpen(by: pid, under: root)
            return keptInCrowd <= left
        }
        #expect(gaveBack, "\(keptInCrowd) tile files open with \(Self.crowd + 1) connections; at most \(left) leave them theirs")
        let answered = (crowd ?? []).enumerated().filter { index, connection in
            connection.request(Self.path(index % Self.tileCount))?.status == 200
        }.count
        #expect(answered == Self.crowd, "every connection of the crowd is served")

        crowd = nil  // closes them
        let tookBack = try await eventually {
            for index in 0 ..< Self.tileCount { _ = client.request(Self.path(index)) }
            return Self.filesOpen(by: pid, under: root) == Self.tileCount
        }
        #expect(tookBack, "with the crowd gone the files are kept again")
        serve.signal(SIGTERM)
        #expect(serve.waitForExit(seconds: 15) == 0)
    }
}
