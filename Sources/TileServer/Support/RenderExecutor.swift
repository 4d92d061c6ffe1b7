// Where the server's Swift-concurrency work runs: threads of its own, not the process's shared pool.

#if os(Linux)
import CLinux
#endif
import Dispatch
import Foundation
import Sockets
import Synchronization

/// Runs the server's tasks — renders (derived and composite tiles, `/static` views) and the
/// awaits of asynchronous providers — on `threads` threads of its own, as a `TaskExecutor`
/// the tasks prefer (their child tasks and continuations inherit it), first come, first run.
///
/// Not Swift concurrency's default executor: on Linux that is Dispatch's shared global pool, as
/// many threads as cores, which anything else in the process may hold — a blocking call made on
/// one of its threads, an embedding program's own tasks, the clients of a test that runs a
/// server in-process — and which adds only about a thread a second while its threads block. A
/// render queued behind such work waited for it, up to the connection's answer deadline (a
/// 503). Renders are computation, so as many threads as cores; what may wait on a disk or a
/// database runs on the workers (`WorkerPool`), never here.
final class RenderExecutor: TaskExecutor {
    /// Nice value of the render threads: a tenth of a busy core's share. Lower priorities kept
    /// hot tiles faster under a flood of cold ones but starved renders in a busy process
    /// (docs/performance.md, "Load shedding and faults").
    static let niceness: Int32 = 10

    /// The server's: one thread per core, at least two.
    static let shared = RenderExecutor(threads: max(2, System.coreCount), name: "render")

    private struct Queue {
        /// Jobs not yet taken.
        var jobs = FIFO<UnownedJob>()
        /// How fast jobs finish lately (`expectedWait`).
        var throughput = QueueThroughput(now: Monotonic.nanoseconds)
    }

    private let queue = Mutex(Queue())
    /// Counts the jobs waiting: a thread takes one per signal.
    private let ready = DispatchSemaphore(value: 0)

    /// Starts `threads` threads named `name-0`, `name-1`… (what `top -H` and `perf` show, 15
    /// bytes at most on Linux), which run for the life of the process.
    init(threads: Int, name: String) {
        for index in 0 ..< max(1, threads) {
            Thread { [self] in
                #if os(Linux)
                clinux_name_thread("\(name)-\(index)")
                // Renders are cold work: below the event loops, so memory hits keep flowing
                // while renders take every idle core.
                _ = clinux_set_thread_nice(Self.niceness)
                #endif
                runJobs()
            }.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { queue in
            queue.throughput.queued(behind: queue.jobs.count, at: Monotonic.nanoseconds)
            queue.jobs.append(job)
        }
        ready.signal()
    }

    /// Seconds a job queued now may expect to wait before a thread takes it (`QueueThroughput`);
    /// nil while unknown.
    var expectedWait: Double? {
        queue.withLock { $0.throughput.expectedWait(waiting: $0.jobs.count, at: Monotonic.nanoseconds) }
    }

    private func runJobs() {
        while true {
            ready.wait()
            // One signal per job appended: there is one to take.
            guard let job = queue.withLock({ $0.jobs.takeFirst() }) else { continue }
            job.runSynchronously(on: asUnownedTaskExecutor())
            queue.withLock { queue in queue.throughput.finished(at: Monotonic.nanoseconds, waiting: queue.jobs.count) }
        }
    }
}
