import Sockets
import Synchronization
import TileHTTP

/// How many tile files all layers' `OpenTileFiles` keep open together. Each is a descriptor,
/// and descriptors come from the same open-file limit as the connections, so the budget is
/// the process's, not a layer's: the limit less a reserve (`reservedDescriptors`), less the
/// connections open now (the HTTP server tells it of each: `HTTPConnectionDescriptors`), at
/// most `ceiling` files. Descriptors are shared as they are used: while a few connections are
/// open the files may take what `maxConnections` would, and as connections come the tables
/// give files back (`connectionsChanged(by:)`), so the connections have theirs (as long as the
/// limit leaves the files their `floor`). nginx's `open_file_cache max=` is the same idea, per
/// worker.
final class OpenFileBudget: HTTPConnectionDescriptors, Sendable {
    /// Files kept at most, whatever the limit leaves.
    private let ceiling: Int
    /// Descriptors the files and the connections share: the open-file limit less the reserve.
    private let pool: Atomic<Int>
    /// Files the budget allows even when the connections take the rest of `pool`.
    private let floor: Atomic<Int>
    /// Descriptors of `pool` the files leave free for connections to come, so that the tables
    /// are asked for files back once every so many connections, not at each.
    private let headroom: Int
    private let connections = Atomic<Int>(0)
    private let used = Atomic<Int>(0)
    /// The tables that keep files, asked to give some back when connections need them.
    private let holders = Mutex<[ObjectIdentifier: Holder]>([:])

    private struct Holder {
        weak var files: OpenTileFiles?
    }

    /// Open files kept at most when the open-file limit allows it: the tiles a
    /// `bench-working-set.sh` pyramid (21,845 tiles) sends from their files besides what the
    /// memory cache holds; nginx there keeps up to 10,000 in each of its two workers.
    static let preferredCapacity = 16_384
    /// Descriptors left to everything else (listening socket, event loops, SQLite, logs, and
    /// the tile files of answers the event loops keep to send again:
    /// `HTTPServerConfiguration.reusedFileAnswers`).
    static let reservedDescriptors = 1024
    /// Default `headroom`.
    static let defaultHeadroom = 64

    /// The process's budget, which `ServerRunner` fits to the open-file limit at start-up.
    static let shared = OpenFileBudget(capacity: preferredCapacity, headroom: defaultHeadroom)

    /// A budget of `capacity` files; with `sharedDescriptors`, files and connections together
    /// take at most that many, the files at least `floor`, and leave `headroom` of them free
    /// when they claim.
    init(capacity: Int, sharedDescriptors: Int = .max / 2, floor: Int = 0, headroom: Int = 0) {
        ceiling = max(0, capacity)
        pool = Atomic(sharedDescriptors)
        self.floor = Atomic(max(0, floor))
        self.headroom = max(0, headroom)
    }

    /// Open files counted now.
    var inUse: Int { used.load(ordering: .relaxed) }

    /// Files the budget lets tables claim now, beside the connections open and the headroom.
    var capacity: Int { capacity(connections: connections.load(ordering: .relaxed), headroom: headroom) }

    private func capacity(connections: Int, headroom: Int) -> Int {
        let left = pool.load(ordering: .relaxed) - connections - headroom
        return min(ceiling, max(floor.load(ordering: .relaxed), left))
    }

    /// Takes one file of the budget; false when none is left, unless `evenIfSpent` (a table's
    /// guaranteed few, counted all the same).
    func claim(evenIfSpent: Bool = false) -> Bool {
        if evenIfSpent {
            used.add(1, ordering: .relaxed)
            return true
        }
        let capacity = capacity
        var current = used.load(ordering: .relaxed)
        while current < capacity {
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

    /// Counts the connections. When one opened leaves the files fewer descriptors than they
    /// hold, the tables close their oldest down to `capacity` (the headroom below that), here
    /// on the accepting event loop: closing a regular file does not wait on the disk.
    func connectionsChanged(by delta: Int) {
        let open = connections.wrappingAdd(delta, ordering: .relaxed).newValue
        let held = used.load(ordering: .relaxed)
        guard delta > 0, held > capacity(connections: open, headroom: 0) else { return }
        reclaim(held - capacity(connections: open, headroom: headroom))
    }

    /// Asks the tables, fullest first, to close up to `count` of their files.
    private func reclaim(_ count: Int) {
        let tables = holders.withLock { holders in holders.values.compactMap(\.files) }
        var closed = 0
        for table in tables.map({ ($0, $0.count) }).sorted(by: { $0.1 > $1.1 }).map(\.0) where closed < count {
            closed += table.giveBack(upTo: count - closed)
        }
    }

    /// Lists `files` among the tables asked to give files back.
    func register(_ files: OpenTileFiles) {
        holders.withLock { $0[ObjectIdentifier(files)] = Holder(files: files) }
    }

    /// Takes `files` off that list (it is going away).
    func unregister(_ files: OpenTileFiles) {
        _ = holders.withLock { $0.removeValue(forKey: ObjectIdentifier(files)) }
    }

    /// Raises the soft open-file limit to fit `maxConnections`, the reserve and
    /// `preferredCapacity` files (up to the hard limit), and shares what the limit leaves
    /// beside the reserve between the connections and the files: at least a sixteenth of the
    /// limit for the files, at most `ceiling`. Returns the files allowed while no connection is
    /// open.
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
        pool.store(soft - Self.reservedDescriptors, ordering: .relaxed)
        floor.store(soft / 16, ordering: .relaxed)
        return capacity(connections: 0, headroom: headroom)
    }
}
