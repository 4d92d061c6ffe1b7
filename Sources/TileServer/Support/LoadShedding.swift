import Sockets
import Synchronization

/// Load shedding: new cold work — a tile or a view that is not in memory — is refused at once
/// (503 with `Retry-After`, never stored) while it would wait longer than
/// `server.workers.maxWaitSeconds`. Memory hits, and requests that join a fill under way, add no
/// work and are never shed. Three waits are estimated, each as a length over a recent rate
/// (Little's law, `QueueThroughput`), so each follows the work's real cost: the workers' queue,
/// the render threads' queue, and the layer's own cold requests in flight over the rate they
/// are answered — what a composite waits for, its render being many short jobs interleaved
/// with every other composite's, and what an upstream's tiles wait for inside its
/// `maxConcurrency`. The last is the layer's alone: one slow layer does not shed the others.
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

    /// One layer's cold requests (a view's count under its layer).
    private struct Requests {
        /// Taken and not yet answered.
        var inFlight = 0
        /// How fast they are answered while others wait.
        var answers = QueueThroughput(now: Monotonic.nanoseconds)

        mutating func admit(at now: UInt64) {
            answers.queued(behind: inFlight, at: now)
            inFlight += 1
        }

        mutating func answer(at now: UInt64) {
            inFlight -= 1
            answers.finished(at: now, waiting: inFlight)
        }
    }

    /// Each layer's cold requests; the service's in flight are their sum.
    private let layers = Mutex<[String: Requests]>([:])

    /// A cold request of `layer` was taken (queued for the workers).
    func admitted(layer: String) {
        layers.withLock { $0[layer, default: Requests()].admit(at: Monotonic.nanoseconds) }
    }

    /// A cold request of `layer` taken was answered.
    func answered(layer: String) {
        layers.withLock { $0[layer]?.answer(at: Monotonic.nanoseconds) }
    }

    /// The `Retry-After` (seconds: the expected wait, rounded up) for cold work of `layer`
    /// arriving now, and the wait, or nil to take it: fewer than `minimumInFlight` cold requests
    /// are in flight, or the longest expected wait — of `workers`, of `renders` (the render
    /// threads, for work that renders or awaits an asynchronous source), of the layer's own
    /// requests — is within `maxWait` (0 turns shedding off) or not known yet.
    func refusal(layer: String, maxWait: Double, workers: WorkerPool, renders: RenderExecutor?) -> (retryAfter: Int, wait: Double)? {
        guard maxWait > 0 else { return nil }
        let (inFlight, requests) = layers.withLock { layers in
            (layers.values.reduce(0) { $0 + $1.inFlight },
             layers[layer].flatMap { $0.answers.expectedWait(waiting: $0.inFlight, at: Monotonic.nanoseconds) })
        }
        guard inFlight >= Self.minimumInFlight else { return nil }
        let wait = max(workers.expectedWait ?? 0, renders?.expectedWait ?? 0, requests ?? 0)
        guard wait > maxWait else { return nil }
        return (min(Self.maxRetryAfter, max(1, Int(wait.rounded(.up)))), wait)
    }
}
