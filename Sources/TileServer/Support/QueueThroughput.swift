/// How fast a queue's jobs finish while jobs wait for it, and so how long a job queued now may
/// wait: by Little's law, the jobs ahead of it divided by the jobs finished per second. The
/// rate is measured only during a backlog (jobs waiting): while none wait, jobs finish as fast
/// as they come, which says nothing of how fast they could. Counted in windows of `window`
/// nanoseconds, a new one at the start of each backlog; a window past its length is evidence
/// too — at best a job finishes at once, so its rate is at most (finished + 1) ÷ elapsed — and
/// a queue whose jobs stopped finishing shows a rate falling toward zero and a wait growing
/// without bound. A value: its owner keeps it under its own lock and passes the clock in.
struct QueueThroughput: Sendable {
    /// Window length, nanoseconds.
    let window: UInt64
    private var windowStart: UInt64
    private var finishedInWindow = 0
    /// Jobs per second over the last whole window of a backlog; nil before one has closed.
    private var lastRate: Double?

    /// Default window: 250 ms, long enough to hold a few renders, short enough to follow a burst.
    static let defaultWindow: UInt64 = 250_000_000

    /// A throughput measured from `now`.
    init(now: UInt64, window: UInt64 = defaultWindow) {
        self.window = max(1, window)
        windowStart = now
    }

    /// A job was queued at `now` behind `waiting` others: with none, a backlog begins (and a window).
    mutating func queued(behind waiting: Int, at now: UInt64) {
        guard waiting == 0 else { return }
        windowStart = now
        finishedInWindow = 0
    }

    /// A job finished at `now`, `waiting` jobs still waiting; a window of a backlog closes.
    mutating func finished(at now: UInt64, waiting: Int) {
        finishedInWindow += 1
        let elapsed = now &- windowStart
        // A window closes only inside a backlog: one that ended is no measure of the pace.
        guard waiting > 0, now > windowStart, elapsed >= window else { return }
        lastRate = Double(finishedInWindow) / (Double(elapsed) / 1e9)
        windowStart = now
        finishedInWindow = 0
    }

    /// Jobs finished per second during backlogs lately, nil while unknown (no window closed yet).
    func rate(at now: UInt64) -> Double? {
        let elapsed = now &- windowStart
        // A window overdue without closing: at best the next job finishes now.
        if now > windowStart, elapsed >= window { return Double(finishedInWindow + 1) / (Double(elapsed) / 1e9) }
        return lastRate
    }

    /// Seconds a job queued at `now` behind `waiting` others may expect to wait; 0 with none
    /// ahead, nil while the rate is unknown.
    func expectedWait(waiting: Int, at now: UInt64) -> Double? {
        guard waiting > 0 else { return 0 }
        guard let rate = rate(at: now), rate > 0 else { return nil }
        return Double(waiting) / rate
    }
}
