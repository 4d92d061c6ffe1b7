// A file a provider reads, reopened when replaced: a reader that must not wait never makes the
// check itself.

import Dispatch
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

    /// While another thread's check is stuck opening the replaced file, a reader that must not
    /// wait gets the current source at once (were it to wait, the test would hang: the open is
    /// released only after that call returns); the replaced file's once the open ends.
    @Test func aReaderThatMustNotWaitNeverWaitsForACheck() async throws {
        let fixture = try MBTilesFixture()
        let path = fixture.path("file")
        #expect(FileManager.default.createFile(atPath: path, contents: Data([1])))
        let opens = Atomic(0)
        let release = DispatchSemaphore(value: 0)
        defer { for _ in 0 ..< 8 { release.signal() } }  // no open left stuck once the test ends
        let file = try ReopeningFile<Opened>(path: path, recheckInterval: .zero, identity: \.identity) {
            found throws(TileProviderError) in
            let number = opens.add(1, ordering: .relaxed).newValue
            if number > 1 { release.wait() }  // every open after the first waits for the test
            return Opened(number: number, identity: found)
        }
        try FileManager.default.removeItem(atPath: path)
        #expect(FileManager.default.createFile(atPath: path, contents: Data([1, 2, 3])))  // another inode and size

        guard case .open(let current) = file.currentWithoutWaiting() else {
            Issue.record("the current source is served while the check runs")
            return
        }
        #expect(current.number == 1)
        var reopened = false
        for _ in 0 ..< 200 where !reopened {
            release.signal()  // lets the stuck open (and any later one) end
            if case .open(let now) = file.currentWithoutWaiting(), now.number > 1 { reopened = true }
            if !reopened { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(reopened, "the check made on another thread opened the replaced file")
        #expect(opens.load(ordering: .relaxed) > 1)
    }
}
