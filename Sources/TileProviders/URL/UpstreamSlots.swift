import Dispatch
import Synchronization

/// At most `limit` fetches of one upstream source in flight (`maxConcurrency`); the others wait
/// in line, first come first served, each for at most its patience. A fetch's own deadline
/// (`timeoutSeconds`) starts once it holds a slot, so a slow upstream holds its share of slots
/// for at most that long and the tiles behind it are served late, not refused: in
/// AsyncHTTPClient's connection-pool queue the deadline ran while they waited, and tiles queued
/// behind sixteen slow ones timed out with them.
final class UpstreamSlots: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var free: Int
        var waiting: [Waiter] = []
        var nextID: UInt64 = 0

        /// Removes the waiter `id`; nil when it was already resumed.
        mutating func remove(_ id: UInt64) -> Waiter? {
            guard let index = waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return waiting.remove(at: index)
        }
    }

    private let state: Mutex<State>
    /// Where the patience timers run.
    private static let timers = DispatchQueue(label: "tilelayer.upstream-slots")

    /// Slots for `limit` fetches at once.
    init(limit: Int) {
        state = Mutex(State(free: max(1, limit)))
    }

    /// Fetches waiting for a slot now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Takes a slot, waiting up to `patience` seconds for one; false when none came in time or
    /// the task was cancelled. A true must be matched by one `release()`.
    func acquire(patience: Double) async -> Bool {
        let id: UInt64? = state.withLock { state in
            if state.free > 0 {
                state.free -= 1
                return nil
            }
            state.nextID &+= 1
            return state.nextID
        }
        guard let id else { return true }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { $0.waiting.append(Waiter(id: id, continuation: continuation)) }
                if Task.isCancelled { giveUp(id) }  // cancelled before it was in line
                Self.timers.asyncAfter(deadline: .now() + .nanoseconds(Int(patience * 1e9))) { [self] in
                    giveUp(id)
                }
            }
        } onCancel: {
            giveUp(id)
        }
    }

    /// Hands the slot to the first waiter, or frees it.
    func release() {
        let next: Waiter? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.continuation.resume(returning: true)
    }

    /// The waiter `id` stops waiting (its patience ran out, or its task was cancelled), unless
    /// it was already given a slot.
    private func giveUp(_ id: UInt64) {
        state.withLock { $0.remove(id) }?.continuation.resume(returning: false)
    }
}
