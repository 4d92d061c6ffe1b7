// The bounded pool that runs whatever may block — sync providers, file and database reads,
// disk tiers, first hashing of a file, admin work — so an event loop never waits on a disk.

import Dispatch
import Synchronization

/// At most `threads` jobs at once on a concurrent Dispatch queue, at most `queueLimit` more
/// waiting (first in, first out); beyond that a job is refused and its request answered 503.
/// A job that hangs holds one thread, never a loop: with every thread hung, new jobs wait in
/// the queue until their connection's answer deadline.
final class WorkerPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        var running = 0
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
    private let queue = DispatchQueue(label: "tilelayer-worker", attributes: .concurrent)
    private let state = Mutex(State())

    /// A pool of `threads` threads with room for `queueLimit` waiting jobs.
    init(threads: Int, queueLimit: Int) {
        self.threads = max(1, threads)
        self.queueLimit = max(0, queueLimit)
    }

    /// Runs `job` on a pool thread, now or when one is free; false when the queue is full.
    func submit(_ job: @escaping Job) -> Bool {
        let admitted: Bool? = state.withLock { state in
            if state.running < threads {
                state.running += 1
                return true
            }
            guard state.waitingCount < queueLimit else { return nil }
            state.waiting.append(job)
            return false
        }
        guard let admitted else { return false }
        if admitted { start(job) }
        return true
    }

    /// Jobs running and waiting now.
    var load: (running: Int, waiting: Int) {
        state.withLock { ($0.running, $0.waitingCount) }
    }

    private func start(_ job: @escaping Job) {
        queue.async { [self] in
            job()
            // The thread takes the next waiting job itself, or gives its place back.
            while let next = state.withLock({ state -> Job? in
                if let next = state.takeNext() { return next }
                state.running -= 1
                return nil
            }) {
                next()
            }
        }
    }
}
