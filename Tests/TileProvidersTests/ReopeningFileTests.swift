// A file a provider reads, reopened when it changes on disk: at most once per interval on its
// own, at once when asked (`recheck`), and validators of what was read tell a change.

import Foundation
import Synchronization
import Testing
@testable import TileProviders
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct ReopeningFileTests {
    private struct Opened: Sendable {
        let number: Int
        let identity: FileIdentity
    }

    private func reopening(_ path: String, interval: Duration) throws -> ReopeningFile<Opened> {
        let opens = Mutex(0)
        return try ReopeningFile<Opened>(path: path, recheckInterval: interval, identity: \.identity) {
            found throws(TileProviderError) in
            Opened(number: opens.withLock { $0 += 1; return $0 }, identity: found)
        }
    }

    private func number(_ source: ReopeningFile<Opened>.Source) -> Int? {
        if case .open(let opened) = source { return opened.number }
        return nil
    }

    /// Within its interval the file is not looked at; `recheck` looks at once and opens the
    /// replacement; a validator of the first version is then no longer current.
    @Test func aRecheckSeesAReplacementAtOnce() throws {
        let fixture = try MBTilesFixture()
        let path = fixture.path("file")
        #expect(FileManager.default.createFile(atPath: path, contents: Data([1])))
        let file = try reopening(path, interval: .seconds(3600))
        let first = try #require(number(file.current()))
        let validator = file.validator(for: try #require(try FileIdentity.of(path)))
        #expect(validator.isCurrent())

        let replacement = fixture.path("replacement")
        #expect(FileManager.default.createFile(atPath: replacement, contents: Data([2, 3])))
        #expect(rename(replacement, path) == 0)
        #expect(number(file.current()) == first, "the interval has not passed: the file is not looked at")

        file.recheck()
        #expect(number(file.current()) == first + 1)
        #expect(!validator.isCurrent())
    }

    /// A rewrite in place that keeps the size and puts the modification time back (`rsync -t
    /// --inplace`) is another version: its change time moved.
    @Test func aRewriteWithItsTimesPutBackIsAnotherVersion() throws {
        let fixture = try MBTilesFixture()
        let path = fixture.path("file")
        #expect(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3])))
        let before = try #require(try FileIdentity.of(path))
        let file = try reopening(path, interval: .zero)
        let validator = file.validator(for: before)
        #expect(validator.isCurrent())

        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data([9, 9, 9]))
        try handle.close()
        var times = [timespec(tv_sec: before.modifiedSeconds, tv_nsec: before.modifiedNanoseconds),
                     timespec(tv_sec: before.modifiedSeconds, tv_nsec: before.modifiedNanoseconds)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let after = try #require(try FileIdentity.of(path))
        #expect(after.size == before.size && after.modifiedSeconds == before.modifiedSeconds
                && after.modifiedNanoseconds == before.modifiedNanoseconds)
        #expect(after != before, "the change time tells the versions apart")
        #expect(!validator.isCurrent())
    }
}
