// The worker pool: short jobs run about one per core, a stalled job lets a waiting one start on
// another lane, and a full queue still starts a job on a free lane before refusing.

import Foundation
import Synchronization
import Testing
@testable import TileServer
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct WorkerPoolTests {
    /// Counts jobs running at once and the most seen.
    private final class Concurrency: Sendable {
        private let counts = Mutex((now: 0, most: 0, done: 0))

        func enter() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func leave() { counts.withLock { $0.now -= 1; $0.done += 1 } }
        var most: Int { counts.withLock { $0.most } }
        var done: Int { counts.withLock { $0.done } }
    }

    @Test func shortJobsRunAtMostActiveLimitAtOnce() async throws {
        let pool = WorkerPool(threads: 8, queueLimit: 100, activeLimit: 2, stallAfter: 1_000_000_000)
        let seen = Concurrency()
        for _ in 0 ..< 40 {
            #expect(pool.submit {
                seen.enter()
                usleep(1000)
                seen.leave()
            })
        }
        #expect(try await eventually { seen.done == 40 })
        #expect(seen.most <= 2, "jobs younger than stallAfter ran \(seen.most) at once")
        #expect(pool.load.running == 0 && pool.load.waiting == 0)
    }

    @Test func aJobWaitsWhileTheActiveLanesAreFreshAndStartsInOrder() async throws {
        let pool = WorkerPool(threads: 4, queueLimit: 100, activeLimit: 1, stallAfter: 60_000_000_000)
        let release = DispatchSemaphore(value: 0)
        let order = Mutex<[String]>([])
        #expect(pool.submit { release.wait(); order.withLock { $0.append("a") } })
        #expect(pool.submit { order.withLock { $0.append("b") } })
        #expect(pool.submit { order.withLock { $0.append("c") } })
        #expect(pool.load.running == 1 && pool.load.waiting == 2, "one active lane: the others wait")
        release.signal()
        #expect(try await eventually { order.withLock { $0.count } == 3 })
        #expect(order.withLock { $0 } == ["a", "b", "c"])
    }

    @Test func aStalledJobLetsAWaitingJobStartOnAnotherLane() async throws {
        let pool = WorkerPool(threads: 4, queueLimit: 100, activeLimit: 1, stallAfter: 20_000_000)
        let release = DispatchSemaphore(value: 0)
        #expect(pool.submit { release.wait() })
        let ran = Mutex(false)
        #expect(pool.submit { ran.withLock { $0 = true } })
        // The hung job holds the one active lane; past 20 ms it counts as stalled and the
        // waiting job starts on another lane (no other submit or job end comes to start it).
        #expect(try await eventually { ran.withLock { $0 } }, "a waiting job started once the hung one stalled")
        #expect(pool.load.running == 1)
        release.signal()
        #expect(try await eventually { pool.load.running == 0 })
    }

    @Test func aFullQueueStartsAJobOnAFreeLaneBeforeRefusing() async throws {
        let pool = WorkerPool(threads: 3, queueLimit: 0, activeLimit: 1, stallAfter: 1_000_000_000)
        let release = DispatchSemaphore(value: 0)
        for _ in 0 ..< 3 { #expect(pool.submit { release.wait() }) }
        #expect(pool.load.running == 3)
        #expect(!pool.submit {}, "no lane free and no queue: refused")
        for _ in 0 ..< 3 { release.signal() }
        #expect(try await eventually { pool.load.running == 0 })
    }
}
