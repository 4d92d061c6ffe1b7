/// How often keys were asked for, approximately, in little memory: a count-min sketch (four
/// rows of 8-bit counters; a key's estimate is the least of its four counters, never below its
/// true count until a counter saturates or the counters are halved). Once `resetInterval`
/// requests have been counted, every counter and the count itself are halved, so that old
/// popularity fades (later halvings come every `resetInterval / 2` requests). What a full
/// cache's admission compares (TinyLFU): a new entry may take the place of the least recently
/// used ones only if it was asked for far more often (`outranks`).
///
/// Not thread-safe: a `CacheShard` keeps one behind its lock (`@unchecked Sendable` so the
/// lock's region checks let its admission test read it next to the caller's hash function; it is
/// never reached outside the lock). Keys come as 64-bit hashes
/// already mixed (`MemoryCache`'s Fibonacci hash). A class that owns its counters (a
/// noncopyable struct with a `deinit` crashes Swift 6.3.1's inliner here).
@usableFromInline
final class FrequencySketch: @unchecked Sendable {
    /// Four rows of `mask + 1` counters, allocated once (a hit counts without an array's
    /// uniqueness check).
    private let counters: UnsafeMutableBufferPointer<UInt8>
    /// Counters per row, minus one (the width is a power of two).
    private let mask: Int
    private var records = 0
    /// Records between two halvings.
    let resetInterval: Int

    /// Counters per row at least and at most.
    static let rowWidths = 16 ... 1 << 20
    /// Requests counted, per counter of a row, before the first halving.
    static let countsPerCounter = 10
    /// How many times more often (`admissionFactor`, plus `admissionMargin` requests) a new entry
    /// must have been asked for than one it would evict.
    static let admissionFactor = 2
    static let admissionMargin = 2

    /// A sketch with rows of at least `width` counters (a power of two within `rowWidths`):
    /// about the number of distinct keys the cache holds, so that they rarely share counters.
    init(width: Int) {
        var rowWidth = Self.rowWidths.lowerBound
        while rowWidth < width && rowWidth < Self.rowWidths.upperBound { rowWidth <<= 1 }
        counters = .allocate(capacity: 4 * rowWidth)
        counters.initialize(repeating: 0)
        mask = rowWidth - 1
        resetInterval = Self.countsPerCounter * rowWidth
    }

    deinit { counters.deallocate() }

    /// Each row's multiplier: it spreads the hash again, so two keys that share a counter in one
    /// row rarely share one in another.
    private static let multipliers: (UInt64, UInt64, UInt64, UInt64) =
        (0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0xD6E8_FEB8_6659_FD93, 0x9FB2_1C65_1E98_DF25)

    /// The four counters of `hash`, one per row.
    private func slots(_ hash: UInt64) -> (Int, Int, Int, Int) {
        let mixed = hash ^ (hash >> 29)
        let width = mask + 1
        func slot(_ multiplier: UInt64, row: Int) -> Int {
            row * width + (Int(truncatingIfNeeded: (mixed &* multiplier) >> 40) & mask)
        }
        let m = Self.multipliers
        return (slot(m.0, row: 0), slot(m.1, row: 1), slot(m.2, row: 2), slot(m.3, row: 3))
    }

    /// Counts one request for the key of `hash`.
    @usableFromInline
    func record(_ hash: UInt64) {
        let (a, b, c, d) = slots(hash)
        counters[a] &+= counters[a] < .max ? 1 : 0
        counters[b] &+= counters[b] < .max ? 1 : 0
        counters[c] &+= counters[c] < .max ? 1 : 0
        counters[d] &+= counters[d] < .max ? 1 : 0
        records += 1
        if records >= resetInterval { halve() }
    }

    /// About how often the key of `hash` was asked for lately.
    func estimate(_ hash: UInt64) -> Int {
        let (a, b, c, d) = slots(hash)
        return Int(min(min(counters[a], counters[b]), min(counters[c], counters[d])))
    }

    /// Whether an entry asked for about `candidate` times lately may evict one asked for about
    /// `victim` times: more than `admissionFactor` times as often, and `admissionMargin` more
    /// (a saturated victim yields to a saturated candidate: no count can exceed 255).
    func outranks(_ candidate: Int, _ victim: Int) -> Bool {
        candidate > min(Self.admissionFactor * victim + Self.admissionMargin, Int(UInt8.max) - 1)
    }

    private func halve() {
        for slot in counters.indices { counters[slot] >>= 1 }
        records /= 2
    }
}
