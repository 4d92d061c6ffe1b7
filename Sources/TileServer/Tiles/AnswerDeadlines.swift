import Dispatch
import Sockets
import Synchronization

/// The deadlines of the tile answers not given yet, swept four times a second: a deadline costs
/// a lock and a table entry, added and removed. Not a Dispatch timer each (`asyncAfter`): that
/// wakes libdispatch's manager thread for every cold tile, and cannot be cancelled, so it keeps
/// each answer and what it captured alive until its deadline, long after the answer went.
final class AnswerDeadlines: Sendable {
    /// The process's.
    static let shared = AnswerDeadlines()
    /// How often due deadlines are looked for: a deadline fires up to this late.
    static let sweepInterval = 0.25

    private struct Entry {
        let due: UInt64
        let fire: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        /// A sweep is scheduled: one at a time, and none while nothing waits.
        var sweeping = false
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "tilelayer.tile-deadlines")

    /// Runs `fire` once `seconds` have passed, unless `remove` comes first; the key for `remove`.
    func add(after seconds: Double, _ fire: @escaping @Sendable () -> Void) -> UInt64 {
        let due = Monotonic.nanoseconds + Monotonic.nanoseconds(seconds)
        let (id, schedule) = state.withLock { state in
            state.nextID &+= 1
            state.entries[state.nextID] = Entry(due: due, fire: fire)
            defer { state.sweeping = true }
            return (state.nextID, !state.sweeping)
        }
        if schedule { scheduleSweep() }
        return id
    }

    /// Drops the deadline `id` (its answer went).
    func remove(_ id: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// Deadlines waiting.
    var count: Int { state.withLock { $0.entries.count } }

    private func scheduleSweep() {
        queue.asyncAfter(deadline: .now() + .milliseconds(Int(Self.sweepInterval * 1000))) { [self] in sweep() }
    }

    private func sweep() {
        let now = Monotonic.nanoseconds
        let (due, again) = state.withLock { state in
            let due = state.entries.filter { $0.value.due <= now }
            for id in due.keys { state.entries.removeValue(forKey: id) }
            state.sweeping = !state.entries.isEmpty
            return (due.values.map(\.fire), state.sweeping)
        }
        if again { scheduleSweep() }
        for fire in due { fire() }
    }
}
