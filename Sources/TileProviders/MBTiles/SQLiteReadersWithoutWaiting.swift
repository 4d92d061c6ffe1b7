import Dispatch
import Synchronization
#if os(Linux)
import CLinux
#endif

/// Connections that never wait (`SQLiteConnection.Mode.readOnlyWithoutWaiting`), one per event
/// loop, each keeping its read transaction open between reads for up to `transactionLifetime`.
///
/// Within one read transaction SQLite takes no lock, checks no journal and re-reads no header:
/// a read is the B-tree walk over pages it holds, plus a `preadv2` for each page it does not.
/// A transaction is ended by the next read once it is `transactionLifetime` old, or by a timer
/// armed when it begins, `transactionLifetime` later, when no read comes: so another process's
/// write waits for about that long at most (its `PENDING` lock then keeps new transactions from
/// starting: they fail at once, and the read goes to a thread that may wait), and a change made
/// elsewhere is seen here that much later. A failed read ends its transaction at once. A reader
/// keeps the file mapped (the pages it lends tiles from) for `mappingLifetime` after its last
/// read, so traffic that pauses for less does not map every page again (a fault each).
/// A reader is taken with a try-lock, the thread's own first: a read never blocks on another.
final class SQLiteReadersWithoutWaiting: Sendable {
    fileprivate struct Reader {
        let connection: SQLiteConnection
        /// When its read transaction began (`now`); 0 when it has none.
        var transactionBegan: UInt64 = 0
        /// When it was last taken for a read; 0 when its mapping was let go since.
        var lastRead: UInt64 = 0
    }

    /// A reader and the flag that lends it to one thread at a time. A compare-and-swap, not a
    /// `Mutex`: a `Mutex` that is held answers `withLockIfAvailable` with a system call
    /// (FUTEX_TRYLOCK_PI), and a taken reader is the common case for the thread that must then
    /// try the next.
    final class Slot: @unchecked Sendable {
        private let taken = Atomic<Bool>(false)
        /// Touched only by the thread that took the slot (`take` orders the threads), so its
        /// accesses need no run-time exclusivity checks.
        @exclusivity(unchecked) fileprivate var reader: Reader

        fileprivate init(_ connection: SQLiteConnection) { reader = Reader(connection: connection) }

        /// Whether this thread took the slot (no other thread has it).
        fileprivate func take() -> Bool {
            taken.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        }

        /// Gives the taken slot back.
        fileprivate func give() { taken.store(false, ordering: .releasing) }

        /// `body` on the reader if no other thread has it; nil if one has.
        fileprivate func withReaderIfFree<Result>(_ body: (inout Reader) -> Result) -> Result? {
            guard take() else { return nil }
            defer { give() }
            return body(&reader)
        }
    }

    private let slots: [Slot]
    /// How long a read transaction is kept open (`transactionLifetime`), in nanoseconds: what
    /// each read compares with.
    private let lifetimeNanoseconds: UInt64
    /// How long a reader no read took keeps its mapping (`mappingLifetime`, at least
    /// `transactionLifetime`), in nanoseconds.
    private let mappingNanoseconds: UInt64

    /// Least time between the releaser's visits while only mappings are held (no transaction
    /// open), so a tiny `transactionLifetime` does not make it spin for `mappingLifetime`: a
    /// transaction begun meanwhile is ended that much later at most.
    private static let mappingVisitNanoseconds: UInt64 = 10_000_000
    /// Ends the transactions no read ended: a one-shot timer, armed when a transaction begins
    /// and it is not armed already, re-armed by its handler while transactions stay open or a
    /// reader holds its mapping (so every `transactionLifetime`, up to `mappingLifetime` after
    /// the last read).
    /// `DispatchSourceTimer` is thread-safe but not marked `Sendable`; it is only scheduled and
    /// cancelled (by `deinit`) after `init`.
    private nonisolated(unsafe) let releaser: DispatchSourceTimer
    private let releaserArmed = Atomic<Bool>(false)

    /// How late the releaser may fire, at most (Dispatch's leeway).
    private static let releaserLeeway = DispatchTimeInterval.milliseconds(10)

    /// Up to `count` connections to `path`, opened now (opening is file I/O). SQLite reads the
    /// file's header as it opens, through the VFS that never waits: a connection that cannot
    /// (the header not in the page cache, a filesystem without `RWF_NOWAIT`) is left out, and
    /// with none at all every read goes to the threads that may wait. Pages the page cache was
    /// found to hold are taken to stay there for `residency` (`csqlite_nowait_trust_residency`).
    init(path: String, count: Int, transactionLifetime: Duration, mappingLifetime: Duration, residency: Duration = .zero) {
        var slots: [Slot] = []
        for _ in 0 ..< count {
            guard let connection = try? SQLiteConnection(path: path, mode: .readOnlyWithoutWaiting) else { break }
            connection.trustResidency(seconds: Double(Self.nanoseconds(residency)) / 1e9)
            slots.append(Slot(connection))
        }
        self.slots = slots
        lifetimeNanoseconds = Self.nanoseconds(transactionLifetime)
        mappingNanoseconds = max(Self.nanoseconds(mappingLifetime), lifetimeNanoseconds)
        releaser = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        releaser.setEventHandler { [weak self] in self?.endTransactionsNoReadEnded() }
        releaser.activate()
    }

    deinit { releaser.cancel() }

    /// Readers opened.
    var count: Int { slots.count }

    /// `body` on a free reader, in its read transaction (begun now if it has none, or had one
    /// older than `transactionLifetime`); nil when every reader is busy or `body` failed.
    func read<Result>(_ body: (SQLiteConnection) throws(TileProviderError) -> Result) -> Result? {
        lend { (connection, _) throws(TileProviderError) in try body(connection) }
    }

    /// `read`, whose `body` may keep the reader after it returns: `keep()` gives a lease that
    /// holds the reader (taken, so no other thread reads with it, and its transaction open, so
    /// the file's lock is held and the file does not change) until the lease ends
    /// (`SQLiteReaderLease.end()`, or its release). Meanwhile the releaser leaves it alone, and
    /// other reads take another reader, or none. For what `body` lends out of the file.
    func lend<Result>(
        _ body: (SQLiteConnection, _ keep: () -> SQLiteReaderLease) throws(TileProviderError) -> Result
    ) -> Result? {
        guard !slots.isEmpty else { return nil }
        let first = Self.threadIndex % slots.count
        for offset in 0 ..< slots.count {
            let slot = slots[(first + offset) % slots.count]
            guard slot.take() else { continue }
            var lease: SQLiteReaderLease?
            let now = Self.now
            slot.reader.lastRead = now
            Self.endTransaction(of: &slot.reader, ifBegunBefore: Self.time(lifetimeNanoseconds, before: now))
            var outcome: Result?
            do throws(TileProviderError) {
                if slot.reader.transactionBegan == 0 {
                    try slot.reader.connection.withStatement("BEGIN") { (statement) throws(TileProviderError) in
                        _ = try statement.step()
                    }
                    slot.reader.transactionBegan = now
                    armReleaser()
                }
                outcome = try body(slot.reader.connection) {
                    if let lease { return lease }
                    let made = SQLiteReaderLease(slot)
                    lease = made
                    return made
                }
            } catch {
                // A failed read (a page not in the page cache, a lock held elsewhere) may
                // leave SQLite's transaction rolled back but its lock held by the BLOB
                // handle: end both now, not at the next read.
                Self.endTransaction(of: &slot.reader)
            }
            // A lease gives the slot back when it ends; without one, it goes back now.
            if lease == nil { slot.give() }
            return outcome  // nil: taken, failed
        }
        return nil
    }

    /// Schedules the releaser `transactionLifetime` from now (at least `mappingVisitNanoseconds`
    /// when `onlyMappings`: no transaction is open), unless it is scheduled.
    private func armReleaser(onlyMappings: Bool = false) {
        guard releaserArmed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        let delay = onlyMappings ? max(lifetimeNanoseconds, Self.mappingVisitNanoseconds) : lifetimeNanoseconds
        releaser.schedule(deadline: .now() + .nanoseconds(Int(delay)), leeway: Self.releaserLeeway)
    }

    /// The releaser's handler: ends each free reader's transaction that is `transactionLifetime`
    /// old, and unmaps what a reader no read took for `mappingLifetime` lent values from; if
    /// any transaction stays open (a younger one, or one whose reader was busy) or a reader
    /// still holds its mapping, arms again.
    private func endTransactionsNoReadEnded() {
        releaserArmed.store(false, ordering: .releasing)
        let now = Self.now
        let deadline = Self.time(lifetimeNanoseconds, before: now)
        let mappingDeadline = Self.time(mappingNanoseconds, before: now)
        var transactionsOpen = false, mappingsHeld = false
        for slot in slots {
            let held = slot.withReaderIfFree { reader -> (transaction: Bool, mapping: Bool) in
                Self.endTransaction(of: &reader, ifBegunBefore: deadline)
                // A reader no read took for `mappingLifetime` lets its mapping of the file go:
                // the pages it holds mapped (counted in the process's RSS) are then page cache
                // like any. (A busy one keeps it: mapping pages again costs a fault each.)
                if reader.lastRead != 0, reader.lastRead < mappingDeadline {
                    reader.connection.unmapLentValues()
                    reader.lastRead = 0
                }
                return (reader.transactionBegan != 0, reader.lastRead != 0)
            }
            // A busy reader may have a transaction open.
            transactionsOpen = transactionsOpen || (held?.transaction ?? true)
            mappingsHeld = mappingsHeld || (held?.mapping ?? false)
        }
        // Come by again while a transaction is open or a mapping may be held.
        if transactionsOpen || mappingsHeld { armReleaser(onlyMappings: !transactionsOpen) }
    }

    /// Ends `reader`'s transaction if it began before `deadline` (any time when nil), or if
    /// SQLite ended it (a failed read rolls it back); its BLOB handle first, which would keep
    /// it open.
    private static func endTransaction(of reader: inout Reader, ifBegunBefore deadline: UInt64 = .max) {
        let began = reader.transactionBegan
        guard began != 0 else { return }
        let connection = reader.connection
        if connection.isInTransaction {
            if began >= deadline { return }
            connection.closeBlob()
            try? connection.withStatement("COMMIT") { (statement) throws(TileProviderError) in _ = try statement.step() }
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
        } else {
            connection.closeBlob()
        }
        // Kept when SQLite could end it neither way: the next read tries again.
        if !connection.isInTransaction { reader.transactionBegan = 0 }
    }

    /// `duration` in nanoseconds (0 for a negative one).
    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// `span` nanoseconds before `now` (0 when `now` is earlier): what began before it is `span`
    /// old at `now`.
    private static func time(_ span: UInt64, before now: UInt64) -> UInt64 { now > span ? now - span : 0 }

    /// Monotonic nanoseconds (Dispatch's uptime clock, the releaser's), never 0: 0 marks "none"
    /// in `Reader`.
    private static var now: UInt64 { DispatchTime.now().uptimeNanoseconds | 1 }

    /// A number for the calling thread, so each event loop tries its own reader first.
    private static var threadIndex: Int {
        #if os(Linux)
        Int(clinux_thread_number())
        #else
        0
        #endif
    }
}

/// A reader of `SQLiteReadersWithoutWaiting` kept past a read (`lend`), with its read
/// transaction: given back when the lease ends, or is released. Ended on the thread that took
/// it, or anywhere once nothing it lent is in use.
final class SQLiteReaderLease: @unchecked Sendable {
    private let slot: SQLiteReadersWithoutWaiting.Slot
    private let ended = Atomic<Bool>(false)

    fileprivate init(_ slot: SQLiteReadersWithoutWaiting.Slot) { self.slot = slot }

    /// Gives the reader back (once; later calls do nothing).
    func end() {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        slot.give()
    }

    deinit { end() }
}
