// The bounded pool that runs whatever may block — sync providers, file and database reads,
// disk tiers, first hashing of a file, admin work — so an event loop never waits on a disk.

import Dispatch
import Sockets
import Synchronization

/// At most `threads` jobs at once, each on a serial Dispatch queue of its own (a lane), at most
/// `queueLimit` more waiting (first in, first out); beyond that a job is refused and its request
/// answered 503. Serial queues get a thread each when they have work (libdispatch overcommits
/// them), where a concurrent queue would be held to one thread per core and starve behind a
/// blocked job. A job that hangs holds one lane, never a loop: with every lane hung, new jobs
/// wait until their connection's answer deadline.
///
/// Lanes are not all used at once while jobs finish quickly: only `activeLimit` (one per core)
/// run jobs that started less than `stallAfter` (2 ms) ago; more jobs wait for one of them, so
/// a burst of short reads (an uncached MBTiles layer from the page cache) runs on about as many
/// threads as there are cores instead of sixteen threads taking turns on two. A job running
/// longer no longer counts — it waits on a disk or a server, or it is a long computation (a
/// render) — and a waiting job then starts on another lane (at a submit, a job's end, or a
/// check every `stallAfter` while jobs wait), so reads that wait keep up to `threads` of them
/// in flight as before. With the queue full, a job starts on any free lane rather than being
/// refused. Jobs start in the order they came.
final class WorkerPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        /// Lanes with nothing to do.
        var idle: [Int]
        /// Jobs not yet started, first come, first taken.
        var waiting = FIFO<Job>()
        /// When each lane's current job started (monotonic ns); 0 for an idle lane.
        var started: [UInt64]
        /// A check for stalled lanes is scheduled.
        var checkScheduled = false
        /// How fast jobs finish lately (`expectedWait`).
        var throughput: QueueThroughput

        /// Lanes whose job started less than `stallAfter` before `now`.
        func freshCount(now: UInt64, stallAfter: UInt64) -> Int {
            started.reduce(0) { $1 != 0 && now &- $1 < stallAfter ? $0 + 1 : $0 }
        }

        /// Starts a job on `lane` at `now`: the oldest waiting one, with `job` queued behind
        /// it (first come, first started), or `job` itself when none waits.
        mutating func begin(_ job: @escaping Job, on lane: Int, now: UInt64) -> Job {
            started[lane] = now
            guard let first = waiting.takeFirst() else { return job }
            waiting.append(job)
            return first
        }
    }

    /// Jobs that run at once.
    let threads: Int
    /// Jobs that may wait for a thread.
    let queueLimit: Int
    /// Lanes running jobs younger than `stallAfter` at once.
    let activeLimit: Int
    /// Nanoseconds after which a running job no longer counts toward `activeLimit` (it waits on
    /// I/O, or it is long: either way another lane may start).
    let stallAfter: UInt64
    private let lanes: [DispatchQueue]
    private let state: Mutex<State>
    /// Where the check for stalled lanes runs: a serial queue of its own, given a thread even
    /// while Dispatch's shared pool is held by blocked work (as `lanes` are).
    private let stallChecks = DispatchQueue(label: "tilelayer-worker-stall-check")

    /// Default lanes: enough for slow disks and databases on a small machine.
    static let defaultThreads = 16
    /// Default waiting jobs.
    static let defaultQueueLimit = 4096
    /// Default `activeLimit`: one lane per core (at least two).
    static var defaultActiveLimit: Int { max(2, System.coreCount) }
    /// Default `stallAfter`: 2 ms (a tile read from memory takes well under that, a disk seek or
    /// a network filesystem's read more).
    static let defaultStallAfter: UInt64 = 2_000_000

    /// A pool of `threads` lanes with room for `queueLimit` waiting jobs.
    init(
        threads: Int = defaultThreads, queueLimit: Int = defaultQueueLimit, activeLimit: Int = defaultActiveLimit,
        stallAfter: UInt64 = defaultStallAfter
    ) {
        self.threads = max(1, threads)
        self.queueLimit = max(0, queueLimit)
        self.activeLimit = max(1, min(activeLimit, self.threads))
        self.stallAfter = stallAfter
        lanes = (0 ..< self.threads).map { DispatchQueue(label: "tilelayer-worker-\($0)") }
        state = Mutex(State(idle: Array((0 ..< self.threads).reversed()), started: Array(repeating: 0, count: self.threads),
                            throughput: QueueThroughput(now: Monotonic.nanoseconds)))
    }

    /// Runs `job` on a pool thread, now or when one is free; false when the queue is full.
    func submit(_ job: @escaping Job) -> Bool {
        enum Admission { case lane(Int, Job), queued(scheduleCheck: Bool), refused }
        let admission: Admission = state.withLock { state in
            // Read under the lock: a time older than a lane's start would make it look stalled.
            let now = Monotonic.nanoseconds
            if !state.idle.isEmpty, state.freshCount(now: now, stallAfter: stallAfter) < activeLimit {
                let lane = state.idle.removeLast()
                return .lane(lane, state.begin(job, on: lane, now: now))
            }
            if state.waiting.count < queueLimit {
                state.throughput.queued(behind: state.waiting.count, at: now)
                state.waiting.append(job)
                let schedule = !state.checkScheduled
                state.checkScheduled = true
                return .queued(scheduleCheck: schedule)
            }
            // The queue is full: any free lane rather than a refusal.
            guard let lane = state.idle.popLast() else { return .refused }
            return .lane(lane, state.begin(job, on: lane, now: now))
        }
        switch admission {
        case .lane(let lane, let first): start(first, on: lane)
        case .queued(let scheduleCheck): if scheduleCheck { scheduleStallCheck() }
        case .refused: return false
        }
        return true
    }

    /// Jobs running and waiting now.
    var load: (running: Int, waiting: Int) {
        state.withLock { (threads - $0.idle.count, $0.waiting.count) }
    }

    /// Seconds a job submitted now may expect to wait before it starts: the jobs waiting over
    /// the pool's recent throughput (`QueueThroughput`); nil while unknown.
    var expectedWait: Double? {
        state.withLock { $0.throughput.expectedWait(waiting: $0.waiting.count, at: Monotonic.nanoseconds) }
    }

    private func start(_ job: @escaping Job, on lane: Int) {
        lanes[lane].async { [self] in
            job()
            // The lane takes the next waiting job itself while fewer than `activeLimit` other
            // lanes compute, or goes back to idle.
            while let next = state.withLock({ state -> Job? in
                let now = Monotonic.nanoseconds
                state.started[lane] = 0
                state.throughput.finished(at: now, waiting: state.waiting.count)
                if state.waiting.count > 0, state.freshCount(now: now, stallAfter: stallAfter) < activeLimit,
                   let next = state.waiting.takeFirst() {
                    state.started[lane] = now
                    return next
                }
                state.idle.append(lane)
                return nil
            }) {
                next()
            }
        }
    }

    /// While jobs wait, every `stallAfter`: starts waiting jobs on free lanes in place of lanes
    /// whose jobs stalled.
    private func scheduleStallCheck() {
        stallChecks.asyncAfter(deadline: .now() + .nanoseconds(Int(stallAfter))) { [self] in
            var promoted: [(Job, Int)] = []
            let again = state.withLock { state -> Bool in
                let now = Monotonic.nanoseconds
                var fresh = state.freshCount(now: now, stallAfter: stallAfter)
                while fresh < activeLimit, !state.idle.isEmpty, let job = state.waiting.takeFirst() {
                    let lane = state.idle.removeLast()
                    state.started[lane] = now
                    promoted.append((job, lane))
                    fresh += 1
                }
                state.checkScheduled = state.waiting.count > 0
                return state.checkScheduled
            }
            for (job, lane) in promoted { start(job, on: lane) }
            if again { scheduleStallCheck() }
        }
    }
}
