// The bounded pool that runs whatever may block — sync providers, file and database reads,
// disk tiers, first hashing of a file, admin work — so an event loop never waits on a disk.

import Dispatch
import Synchronization

/// At most `threads` jobs at once, each on a serial Dispatch queue of its own (a lane), at most
/// `queueLimit` more waiting (first in, first out); beyond that a job is refused and its request
/// answered 503. Serial queues get a thread each when they have work (libdispatch overcommits
/// them), where a concurrent queue would be held to one thread per core and starve behind a
/// blocked job. A job that hangs holds one lane, never a loop: with every lane hung, new jobs
/// wait until their connection's answer deadline.
final class WorkerPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        /// Lanes with nothing to do.
        var idle: [Int]
        var waiting: [Job] = []
        /// Index of the first job of `waiting` not yet taken.
        var head = 0

        var waitingCount: Int { waiting.count - head }

        mutating func takeNext() -> Job? {
            guard head < waiting.count else { return nil }
            let job = waiting[head]
            head += 1
            if head > 64 && head * 2 > waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    /// Jobs that run at once.
    let threads: Int
    /// Jobs that may wait for a thread.
    let queueLimit: Int
    private let lanes: [DispatchQueue]
    private let state: Mutex<State>

    /// Default lanes: enough for slow disks and databases on a small machine.
    static let defaultThreads = 16
    /// Default waiting jobs.
    static let defaultQueueLimit = 4096

    /// A pool of `threads` lanes with room for `queueLimit` waiting jobs.
    init(threads: Int = defaultThreads, queueLimit: Int = defaultQueueLimit) {
        self.threads = max(1, threads)
        self.queueLimit = max(0, queueLimit)
        lanes = (0 ..< self.threads).map { DispatchQueue(label: "tilelayer-worker-\($0)") }
        state = Mutex(State(idle: Array((0 ..< self.threads).reversed())))
    }

    /// Runs `job` on a pool thread, now or when one is free; false when the queue is full.
    func submit(_ job: @escaping Job) -> Bool {
        enum Admission { case lane(Int), queued, refused }
        let admission: Admission = state.withLock { state in
            if let lane = state.idle.popLast() { return .lane(lane) }
            guard state.waitingCount < queueLimit else { return .refused }
            state.waiting.append(job)
            return .queued
        }
        switch admission {
        case .lane(let lane): start(job, on: lane)
        case .queued: break
        case .refused: return false
        }
        return true
    }

    /// Jobs running and waiting now.
    var load: (running: Int, waiting: Int) {
        state.withLock { (threads - $0.idle.count, $0.waitingCount) }
    }

    private func start(_ job: @escaping Job, on lane: Int) {
        lanes[lane].async { [self] in
            job()
            // The lane takes the next waiting job itself, or goes back to idle.
            while let next = state.withLock({ state -> Job? in
                if let next = state.takeNext() { return next }
                state.idle.append(lane)
                return nil
            }) {
                next()
            }
        }
    }
}
