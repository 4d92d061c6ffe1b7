// A synchronous provider run as an asynchronous one: its blocking call runs on lanes of its
// own, not on Dispatch's shared pool (on Linux also Swift concurrency's), which grows slowly
// while its threads block.

import Dispatch
import Foundation
import Synchronization
import Testing
@testable import TileProviders
import TestThreads

@Suite(.ownThreads) struct SyncProviderAdapterTests {
    /// Answers "no tile", noting the blocking lane it was called on (nil: none).
    final class LaneNoting: SyncTileProvider, Sendable {
        let lane = Mutex<Int??>(nil)

        func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
            lane.withLock { $0 = .some(DispatchQueue.getSpecific(key: BlockingLanes.lane)) }
            return .noTile
        }
    }

    @Test func theProvidersCallRunsOnABlockingLane() async throws {
        let provider = LaneNoting()
        let result = try await SyncProviderAdapter(provider).requestTile(TileRequest(x: 0, y: 0, zoom: 0))
        #expect(result == .noTile)
        let called = try #require(provider.lane.withLock { $0 }, "the provider was called")
        #expect(called != nil, "called on a blocking lane")
    }

    /// With Dispatch's shared pool taken by blocked jobs (a loaded server's waits, a test's
    /// clients), a lane still runs its work at once: the shared pool would need about a second
    /// for each thread it adds.
    @Test func aLaneRunsWhileTheSharedPoolIsBlocked() {
        let atOnce = whileTheSharedPoolIsBlocked {
            let ran = DispatchSemaphore(value: 0)
            BlockingLanes.run { ran.signal() }
            return ran.wait(timeout: .now() + 5) == .success
        }
        #expect(atOnce, "a lane waited behind the shared pool's blocked jobs")
    }
}
