// A tile file read as one version: the bytes and the identity they are labelled with belong
// together, a write that lands during the read is seen, and a settling file that some process
// has open for writing is not taken as a version at all (its write may be half done).

#if os(Linux)
import Foundation
import Glibc
import Testing
@testable import TileProviders
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct TileFileVersionTests {
    private func file(_ bytes: [UInt8]) throws -> (path: String, remove: () -> Void) {
        let path = NSTemporaryDirectory() + "version-\(UUID().uuidString).png"
        // Written through a close-on-exec descriptor: a process another test spawns meanwhile
        // must not inherit it open for writing, or the kernel refuses this file a read lease.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        try #require(written == bytes.count)
        return (path, { try? FileManager.default.removeItem(atPath: path) })
    }

    private func opened(_ path: String) throws -> TileFile {
        try #require(try FileReader.open(path))
    }

    /// Bytes written over the file after it was opened (same inode): the version read is the
    /// new one, labelled with the new identity, never the old identity on new bytes.
    @Test func aWriteAfterTheOpenIsReadAsTheNewVersion() throws {
        let (path, remove) = try file(Array(repeating: 1, count: 5000))
        defer { remove() }
        let tile = try opened(path)
        let fd = open(path, O_WRONLY | O_TRUNC)
        #expect(Array(repeating: UInt8(2), count: 7000).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == 7000)
        close(fd)
        let (bytes, identity) = try tile.readVersion()
        #expect(bytes == Array(repeating: 2, count: 7000))
        #expect(identity == (try FileIdentity.of(path)) && identity != tile.identity)
        #expect(tile.readVersionWithoutWaiting(settling: false) == nil, "changed since it was opened: left to a worker")
    }

    /// A settling file that a process holds open for writing is not read as a version (a write
    /// may be under way), on the loop or on a worker; once the writer closes it, it is.
    @Test func aSettlingFileOpenForWritingIsNotTakenAsAVersion() throws {
        let bytes = [UInt8](repeating: 7, count: 3000)
        let (path, remove) = try file(bytes)
        defer { remove() }
        let tile = try opened(path)
        #expect(tile.readVersionWithoutWaiting(settling: true) == bytes, "no writer: read under a lease")
        let writer = open(path, O_WRONLY)
        try #require(writer >= 0)
        #expect(tile.readVersionWithoutWaiting(settling: true) == nil, "open for writing: not taken")
        #expect(throws: TileProviderError.changing(path: path)) { try tile.readVersion(settling: true) }
        #expect(tile.readVersionWithoutWaiting(settling: false) == bytes, "a settled file is not asked about writers")
        close(writer)
        #expect(try tile.readVersion(settling: true).bytes == bytes)
    }

    /// While the lease is held, a process that opens the file for writing waits for its end.
    @Test func aWriterWaitsForTheReadUnderALease() async throws {
        let (path, remove) = try file([UInt8](repeating: 7, count: 3000))
        defer { remove() }
        let tile = try opened(path)
        let result = tile.withReadLease { () -> Int in
            let started = Date()
            let writer = Thread {
                let fd = open(path, O_WRONLY)
                close(fd)
            }
            writer.start()
            usleep(100_000)  // the writer's open waits on the lease meanwhile
            #expect(!writer.isFinished, "the writer's open waits for the lease to end")
            return Int(Date().timeIntervalSince(started) * 1000)
        }
        guard case .read(let held) = result else {
            Issue.record("a read lease is taken on a file no one writes (running as root or as its owner)")
            return
        }
        #expect(held >= 100)
    }
}
#endif
