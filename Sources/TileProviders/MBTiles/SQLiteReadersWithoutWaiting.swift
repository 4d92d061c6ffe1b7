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
/// A transaction is ended by the next read once it is `transactionLifetime` old, and by a timer
/// when no read comes: so another process's write waits for at most about that long (its
/// `PENDING` lock then keeps new transactions from starting: they fail at once, and the read
/// goes to a thread that may wait), and a change made elsewhere is seen here that much later.
/// A reader is taken with a try-lock, the thread's own first: a read never blocks on another.
final class SQLiteReadersWithoutWaiting: Sendable {
    private struct Reader {
        let connection: SQLiteConnection
        /// When its read transaction began; nil when it has none.
        var transactionBegan: ContinuousClock.Instant?
    }

    /// A reader and the flag that lends it to one thread at a time. A compare-and-swap, not a
    /// `Mutex`: a `Mutex` that is held answers `withLockIfAvailable` with a system call
    /// (FUTEX_TRYLOCK_PI), and a taken reader is the common case for the thread that must then
    /// try the next.
    private final class Slot: @unchecked Sendable {
        private let taken = Atomic<Bool>(false)
        /// Touched only by the thread that took the slot.
        private var reader: Reader

        init(_ connection: SQLiteConnection) { reader = Reader(connection: connection) }

        /// `body` on the reader if no other thread has it; nil if one has.
        func withReaderIfFree<Result>(_ body: (inout Reader) -> Result) -> Result? {
            guard taken.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return nil }
            defer { taken.store(false, ordering: .releasing) }
            return body(&reader)
        }
    }

    private let slots: [Slot]
    /// How long a read transaction is kept open.
    let transactionLifetime: Duration
    /// Ends transactions no read ended (nil without readers).
    private nonisolated(unsafe) let releaser: DispatchSourceTimer?

    /// `count` connections to `path` (opened now: opening is file I/O).
    init(path: String, count: Int, transactionLifetime: Duration) throws(TileProviderError) {
        var slots: [Slot] = []
        for _ in 0 ..< count { slots.append(Slot(try SQLiteConnection(path: path, mode: .readOnlyWithoutWaiting))) }
        self.slots = slots
        self.transactionLifetime = transactionLifetime
        guard !slots.isEmpty else {
            releaser = nil
            return
        }
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let interval = DispatchTimeInterval.nanoseconds(Int(max(transactionLifetime, .milliseconds(10)).nanoseconds))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: interval)
        timer.setEventHandler { [slots] in
            let now = ContinuousClock.now
            for slot in slots {
                _ = slot.withReaderIfFree { reader in Self.endTransaction(of: &reader, ifBegunBefore: now - transactionLifetime) }
            }
        }
        timer.resume()
        releaser = timer
    }

    deinit { releaser?.cancel() }

    /// Whether there are readers at all.
    var isEmpty: Bool { slots.isEmpty }

    /// `body` on a free reader, in its read transaction (begun now if it has none, or had one
    /// older than `transactionLifetime`); nil when every reader is busy or `body` failed.
    func read<Result>(_ body: (SQLiteConnection) throws(TileProviderError) -> Result) -> Result? {
        guard !slots.isEmpty else { return nil }
        let first = Self.threadIndex % slots.count
        for offset in 0 ..< slots.count {
            let slot = slots[(first + offset) % slots.count]
            let outcome = slot.withReaderIfFree { reader -> Result? in
                let now = ContinuousClock.now
                Self.endTransaction(of: &reader, ifBegunBefore: now - transactionLifetime)
                do throws(TileProviderError) {
                    if reader.transactionBegan == nil {
                        try reader.connection.withStatement("BEGIN") { (statement) throws(TileProviderError) in
                            _ = try statement.step()
                        }
                        reader.transactionBegan = now
                    }
                    return try body(reader.connection)
                } catch {
                    return nil
                }
            }
            if let taken = outcome { return taken }  // nil: busy; .some(nil): taken, failed
        }
        return nil
    }

    /// Ends `reader`'s transaction if it began before `deadline`, or if SQLite ended it (a
    /// failed read rolls it back).
    private static func endTransaction(of reader: inout Reader, ifBegunBefore deadline: ContinuousClock.Instant) {
        guard let began = reader.transactionBegan else { return }
        guard reader.connection.isInTransaction else {
            reader.connection.closeBlob()
            reader.transactionBegan = nil
            return
        }
        guard began < deadline else { return }
        reader.connection.closeBlob()  // an open BLOB handle would keep the transaction open
        try? reader.connection.withStatement("COMMIT") { (statement) throws(TileProviderError) in _ = try statement.step() }
        if reader.connection.isInTransaction { try? reader.connection.execute("ROLLBACK") }
        reader.transactionBegan = nil
    }

    /// A number for the calling thread, so each event loop tries its own reader first.
    private static var threadIndex: Int {
        #if os(Linux)
        Int(clinux_thread_number())
        #else
        0
        #endif
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
