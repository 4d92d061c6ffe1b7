#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The process's file descriptors as a budget, not a cliff. At `RLIMIT_NOFILE` every `open`
/// fails, libdispatch's too — and libdispatch traps (SIGILL) when it cannot open
/// `/proc/<tid>/stat`, which it does once a second for its worker threads — so the process
/// must never get there: the server admits a connection only while more than `reserve`
/// descriptors are free, and answers 503 (a refused connection, a tile file) while more than
/// half of it is; below that it pauses accepting. Free descriptors are the limit less those
/// the server opens itself and tracks exactly (client connections, tile files: `opened`,
/// `closed`) less the rest (listeners, event loops, libraries' sockets and files) as last
/// counted in `/proc/self/fd` (`census`, run often only near the limit: far from it the rest
/// grows by little more than the reserve holds).
///
/// Process-wide, like the descriptor table it accounts for: `DescriptorBudget.process`.
public final class DescriptorBudget: Sendable {
    /// The process's budget.
    public static let process = DescriptorBudget()

    /// What a descriptor is wanted for: a connection to serve needs the whole reserve free, a
    /// connection only told 503 or a tile file half of it.
    public enum Use: Sendable {
        case connection, rejection, file
    }

    /// The soft `RLIMIT_NOFILE` (unknown: as good as unlimited).
    private let limitValue = Atomic<Int>(Int.max / 2)
    private let reserveValue = Atomic<Int>(0)
    private let tracked = Atomic<Int>(0)
    private let untracked = Atomic<Int>(0)
    private let lastCensus = Atomic<UInt64>(0)
    /// Connections and files refused for want of descriptors, and `EMFILE`/`ENFILE` seen.
    private let refusedConnections = Atomic<Int>(0)
    private let refusedFiles = Atomic<Int>(0)
    private let exhausted = Atomic<Int>(0)
    private let pauses = Atomic<Int>(0)

    /// How often `censusIfNear` counts, at most: nanoseconds.
    static let censusInterval: UInt64 = 100_000_000

    init() {}

    /// Reads the soft limit now (after the server raised it) and keeps `defaultReserve(limit:)`
    /// descriptors free, then counts what is open.
    public func configure() {
        let soft = System.descriptorLimit().map { Int(min($0, UInt64(Int.max / 2))) } ?? Int.max / 2
        limitValue.store(soft, ordering: .relaxed)
        reserveValue.store(Self.defaultReserve(limit: soft), ordering: .relaxed)
        census()
    }

    /// The default reserve: a sixteenth of the limit, 16 to 1024 descriptors — room for what
    /// opens between two counts (an upstream's sockets, a disk-tier write, libdispatch's reads).
    public static func defaultReserve(limit: Int) -> Int { min(1024, max(16, limit / 16)) }

    /// The soft limit and the reserve in force.
    public var limit: Int { limitValue.load(ordering: .relaxed) }
    public var reserve: Int { reserveValue.load(ordering: .relaxed) }

    /// Descriptors free by the budget's count.
    public var free: Int {
        limit - tracked.load(ordering: .relaxed) - untracked.load(ordering: .relaxed)
    }

    /// Descriptors open by the budget's count.
    public var open: Int { tracked.load(ordering: .relaxed) + untracked.load(ordering: .relaxed) }

    /// Whether a descriptor for `use` may be opened now; a no for a file is counted here (a
    /// connection's by `refusedConnection` when it is answered 503, or `acceptPaused`).
    public func hasRoom(for use: Use) -> Bool {
        let free = self.free, reserve = self.reserve
        switch use {
        case .connection: return free > reserve
        case .rejection: return free > reserve / 2
        case .file:
            guard free > reserve / 2 else {
                refusedFiles.add(1, ordering: .relaxed)
                return false
            }
            return true
        }
    }

    /// A tracked descriptor was opened (a connection accepted, a tile file opened).
    public func opened() { tracked.add(1, ordering: .relaxed) }
    /// A tracked descriptor was closed.
    public func closed() { tracked.subtract(1, ordering: .relaxed) }
    /// A connection was refused (answered 503, or left in the backlog) for want of descriptors.
    public func refusedConnection() { refusedConnections.add(1, ordering: .relaxed) }
    /// A call failed with `EMFILE` or `ENFILE`.
    public func exhaustedOnce() { exhausted.add(1, ordering: .relaxed) }
    /// Accepting paused for want of descriptors.
    public func acceptPaused() { pauses.add(1, ordering: .relaxed) }

    /// Counts so far: connections answered 503 and files refused for want of descriptors,
    /// `EMFILE`/`ENFILE` seen, accept pauses.
    public var pressure: (connections: Int, files: Int, exhausted: Int, pauses: Int) {
        (refusedConnections.load(ordering: .relaxed), refusedFiles.load(ordering: .relaxed),
         exhausted.load(ordering: .relaxed), pauses.load(ordering: .relaxed))
    }

    /// Counts the open descriptors again when free ones are within four reserves, at most every
    /// `censusInterval`.
    public func censusIfNear(now: UInt64) {
        guard free < 4 * reserve, now &- lastCensus.load(ordering: .relaxed) >= Self.censusInterval else { return }
        lastCensus.store(now, ordering: .relaxed)
        census()
    }

    /// Counts the descriptors open in `/proc/self/fd` and takes those not tracked as the rest.
    public func census() {
        guard let counted = Self.openDescriptors() else { return }
        untracked.store(max(0, counted - tracked.load(ordering: .relaxed)), ordering: .relaxed)
    }

    /// Descriptors open in the process (Linux: `/proc/self/fd`, less the one that reads it);
    /// nil when that cannot be read.
    static func openDescriptors() -> Int? {
        guard let folder = opendir("/proc/self/fd") else { return nil }
        defer { closedir(folder) }
        var count = 0
        while let entry = readdir(folder) {
            if entry.pointee.d_name.0 != CChar(UInt8(ascii: ".")) { count += 1 }
        }
        return count - 1
    }
}
