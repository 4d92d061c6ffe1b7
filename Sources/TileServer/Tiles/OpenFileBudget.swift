import Sockets
import Synchronization

/// How many tile files all layers' `OpenTileFiles` keep open together. Each is a descriptor,
/// and descriptors are shared with the connections, so the budget is the process's, not a
/// layer's, and is sized from its open-file limit (`fit(maxConnections:)`); nginx's
/// `open_file_cache max=` is the same idea, per worker.
final class OpenFileBudget: Sendable {
    private let capacity: Atomic<Int>
    private let used = Atomic<Int>(0)

    /// Open files kept at most when the open-file limit allows it: about a third of a
    /// `bench-working-set.sh` pyramid (21,845 tiles) besides what the memory cache holds.
    static let preferredCapacity = 8192
    /// Descriptors left to everything else (listening socket, event loops, SQLite, logs, and
    /// the tile files of answers the event loops keep to send again:
    /// `HTTPServerConfiguration.reusedFileAnswers`).
    static let reservedDescriptors = 1024

    /// The process's budget, which `ServerRunner` fits to the open-file limit at start-up.
    static let shared = OpenFileBudget(capacity: preferredCapacity)

    init(capacity: Int) {
        self.capacity = Atomic(max(0, capacity))
    }

    /// Open files counted now.
    var inUse: Int { used.load(ordering: .relaxed) }

    /// Takes one file of the budget; false when none is left, unless `evenIfSpent` (a table's
    /// guaranteed few, counted all the same).
    func claim(evenIfSpent: Bool = false) -> Bool {
        if evenIfSpent {
            used.add(1, ordering: .relaxed)
            return true
        }
        var current = used.load(ordering: .relaxed)
        while current < capacity.load(ordering: .relaxed) {
            let (exchanged, original) = used.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives back `count` files claimed before.
    func release(_ count: Int = 1) {
        guard count > 0 else { return }
        used.subtract(count, ordering: .relaxed)
    }

    /// Raises the soft open-file limit to fit `maxConnections`, the reserve and
    /// `preferredCapacity` files (up to the hard limit), and sets the budget to what the limit
    /// leaves beside the connections and the reserve: at least a sixteenth of the limit, at
    /// most `preferredCapacity`. Returns the budget.
    @discardableResult
    func fit(maxConnections: Int) -> Int {
        let wanted = UInt64(maxConnections + Self.reservedDescriptors + Self.preferredCapacity)
        let soft: Int
        switch System.raiseDescriptorLimit(to: wanted) {
        case .sufficient(let current): soft = Int(clamping: current)
        case .raised(_, let to): soft = Int(clamping: to)
        case .capped(_, let hard): soft = Int(clamping: hard)
        case .failed: soft = 1024
        }
        let fitted = Self.capacity(openFileLimit: soft, maxConnections: maxConnections)
        capacity.store(fitted, ordering: .relaxed)
        return fitted
    }

    /// The budget an open-file limit of `limit` leaves beside `maxConnections` and the reserve.
    static func capacity(openFileLimit limit: Int, maxConnections: Int) -> Int {
        min(preferredCapacity, max(limit / 16, limit - maxConnections - reservedDescriptors))
    }
}
