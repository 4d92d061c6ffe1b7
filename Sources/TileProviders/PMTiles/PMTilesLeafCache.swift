/// Decoded leaf directories by offset, at most `capacity` of them; the least recently used
/// goes first. Not thread-safe: `PMTilesArchive` keeps it in a `Mutex`.
struct PMTilesLeafCache: Sendable {
    let capacity: Int
    private var entries: [UInt64: (directory: PMTilesDirectory, used: UInt64)] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int) { self.capacity = capacity }

    /// The directory at `offset` if cached.
    mutating func directory(at offset: UInt64) -> PMTilesDirectory? {
        guard let found = entries[offset] else { return nil }
        clock += 1
        entries[offset]?.used = clock
        return found.directory
    }

    /// Caches `directory`, evicting the least recently used when full.
    mutating func insert(_ directory: PMTilesDirectory, at offset: UInt64) {
        if entries[offset] == nil, entries.count >= capacity,
           let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key {
            entries[oldest] = nil
        }
        clock += 1
        entries[offset] = (directory, clock)
    }

    /// How many directories are cached.
    var count: Int { entries.count }
}
