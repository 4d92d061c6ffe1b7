import Sockets
import Synchronization

/// Load shedding: new cold work — a tile or a view that is not in memory — is refused at once
/// (503 with `Retry-After`, never stored) while the workers or the render threads are so far
/// behind that it would wait longer than `server.workers.maxWaitSeconds` to start. Memory hits,
/// and requests that join a fill under way, add no work and are never shed. The expected wait
/// is each queue's length over its recent throughput (`QueueThroughput`), so it follows the
/// work's real cost: a queue of cheap reads is long before it sheds, one of composites short.
/// Nothing is shed while the service has fewer than `minimumInFlight` cold requests of its own
/// in flight: a queue that long is one big view's renders (or another service's, in a process
/// that runs several), and refusing the few requests it has would relieve nothing. A refused
/// connection rests `restSeconds` before its next request is read.
final class LoadShedding: Sendable {
    /// Default bound, seconds: a map view's tiles arrive within about this long, or are told
    /// to come back, instead of waiting out the answer deadline in line.
    static let defaultMaxWait = 2.0
    /// Largest `Retry-After` a shed request is given, seconds.
    static let maxRetryAfter = 10
    /// Cold requests in flight below which nothing is shed.
    static let minimumInFlight = 32
    /// Seconds a connection that was refused reads no further request (`HTTPResponse.restSeconds`):
    /// a client that ignores `Retry-After` and asks again at once waits on its own connection,
    /// so a flood of refusals cannot take the event loops from the requests still served.
    static let restSeconds = 1.0

    private struct State {
        /// Cold requests taken and not yet answered.
        var inFlight = 0
        /// How fast they are answered while others wait (`QueueThroughput`).
        var answers = QueueThroughput(now: Monotonic.nanoseconds)
    }

    private let state = Mutex(State())

    /// A cold request was taken (queued for the workers).
    func admitted() {
        state.withLock { state in
            state.answers.queued(behind: state.inFlight, at: Monotonic.nanoseconds)
            state.inFlight += 1
        }
    }

    /// A cold request taken was answered.
    func answered() {
        state.withLock { state in
            state.inFlight -= 1
            state.answers.finished(at: Monotonic.nanoseconds, waiting: state.inFlight)
        }
    }

    /// The `Retry-After` (seconds: the expected wait, rounded up) for cold work arriving now,
    /// and the wait, or nil to take it: fewer than `minimumInFlight` cold requests are in
    /// flight, or the longest expected wait is within `maxWait` (0 turns shedding off) or not
    /// known yet. The waits: of `workers`, of `renders` (the render threads, for work that
    /// renders or awaits an asynchronous source), and of the service's cold requests as a
    /// whole — those in flight over the rate they are answered (Little's law) — which is what
    /// a composite waits for: its render is many short jobs on the render threads, each of
    /// which waits little, interleaved with the jobs of every other composite in flight.
    func refusal(maxWait: Double, workers: WorkerPool, renders: RenderExecutor?) -> (retryAfter: Int, wait: Double)? {
        guard maxWait > 0 else { return nil }
        let (inFlight, requests) = state.withLock { state in
            (state.inFlight, state.answers.expectedWait(waiting: state.inFlight, at: Monotonic.nanoseconds))
        }
        guard inFlight >= Self.minimumInFlight else { return nil }
        let wait = max(workers.expectedWait ?? 0, renders?.expectedWait ?? 0, requests ?? 0)
        guard wait > maxWait else { return nil }
        return (min(Self.maxRetryAfter, max(1, Int(wait.rounded(.up)))), wait)
    }
}
