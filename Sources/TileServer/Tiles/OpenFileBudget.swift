import Sockets
import Synchronization
import TileHTTP

/// How many tile files all layers' `OpenTileFiles` keep open together. Each is a descriptor,
/// and descriptors come from the same open-file limit as the connections, so the budget is
/// the process's, not a layer's: the limit less a reserve (`reservedDescriptors`), less the
/// connections open now (the HTTP server tells it of each: `HTTPConnectionDescriptors`), at
/// most `ceiling` files. Descriptors are shared as they are used: while a few connections are
/// open the files may take what `maxConnections` would, and as connections come the tables
/// give files back (`connectionsChanged(by:)`), so the connections always have theirs.
/// nginx's `open_file_cache max=` is the same idea, per worker.
final class OpenFileBudget: HTTPConnectionDescriptors, Sendable {
    /// Files kept at most, whatever the limit leaves.
    private let ceiling: Atomic<Int>
    /// Descriptors the files and the connections share: the open-file limit less the reserve.
    private let pool: Atomic<Int>
    /// Files the budget allows even when the connections take the rest of `shared`.
    private let floor: Atomic<Int>
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
    /// Files given back beyond what a connection opened needs, so that a burst of connections
    /// asks the tables once every so many, not at each.
    static let givenBackAtOnce = 64

    /// The process's budget, which `ServerRunner` fits to the open-file limit at start-up.
    static let shared = OpenFileBudget(capacity: preferredCapacity)

    /// Files given back beyond what a connection opened needs (`givenBackAtOnce`).
    private let givenBackBeyond: Int

    /// A budget of `capacity` files; with `sharedDescriptors`, files and connections together
    /// take at most that many, the files at least `floor`.
    init(capacity: Int, sharedDescriptors: Int = .max / 2, floor: Int = 0, givenBackAtOnce: Int = givenBackAtOnce) {
        ceiling = Atomic(max(0, capacity))
        pool = Atomic(sharedDescriptors)
        self.floor = Atomic(max(0, floor))
        givenBackBeyond = givenBackAtOnce
    }

    /// Open files counted now.
    var inUse: Int { used.load(ordering: .relaxed) }

    /// Files the budget allows now, beside the connections open.
    var capacity: Int { capacity(connections: connections.load(ordering: .relaxed)) }

    private func capacity(connections: Int) -> Int {
        let left = pool.load(ordering: .relaxed) - connections
        return min(ceiling.load(ordering: .relaxed), max(floor.load(ordering: .relaxed), left))
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

    /// Counts the connections; when one opened leaves the files more than the budget now
    /// allows, asks the tables to close that many and `givenBackAtOnce` more (their oldest).
    func connectionsChanged(by delta: Int) {
        let open = connections.wrappingAdd(delta, ordering: .relaxed).newValue
        guard delta > 0 else { return }
        let excess = used.load(ordering: .relaxed) - capacity(connections: open)
        if excess > 0 { reclaim(excess + givenBackBeyond) }
    }

    /// Asks the tables, fullest first, to close up to `count` of their files; returns how many
    /// they closed.
    @discardableResult
    func reclaim(_ count: Int) -> Int {
        let tables = holders.withLock { holders in holders.values.compactMap(\.files) }
        var closed = 0
        for table in tables.map({ ($0, $0.count) }).sorted(by: { $0.1 > $1.1 }).map(\.0) where closed < count {
            closed += table.giveBack(upTo: count - closed)
        }
        return closed
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
    /// limit for the files, at most `preferredCapacity`. Returns the files allowed while no
    /// connection is open.
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
        ceiling.store(Self.preferredCapacity, ordering: .relaxed)
        pool.store(soft - Self.reservedDescriptors, ordering: .relaxed)
        floor.store(soft / 16, ordering: .relaxed)
        return capacity(connections: 0)
    }
}
