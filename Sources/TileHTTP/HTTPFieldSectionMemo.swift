#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hashing

/// The header sections an event loop parsed lately (a head's field lines and the empty line
/// after them, without the request line), by their bytes, with the fields each parses to.
/// A client's requests mostly differ in their request line alone: a map client asking for tile
/// after tile sends the same Host, User-Agent, Accept and Referer each time. A section seen
/// before then costs a hash and a compare instead of a parse of each field, the strings its
/// values are made into and the array that holds them (the fields are shared, not copied).
/// The same bytes parse to the same fields under the same field limit, which an entry keeps.
///
/// `HTTPHeadMemo` remembers whole heads, for a client that asks for the same thing again; this
/// serves the heads it does not know, such as a working set walked through. It is asked only for
/// the sections of heads the head memo looks up (at most `HTTPHeadMemo.maxHeadBytes`), with the
/// section's hash the head memo made (`hash(_:)`).
///
/// `@unchecked Sendable`: one per loop, used only on that loop (its thread or serial queue),
/// where its connections parse.
final class HTTPFieldSectionMemo: @unchecked Sendable {
    /// One remembered section: its bytes, their hash, the limit it was parsed under, its fields.
    private struct Entry {
        let bytes: [UInt8]
        let hash: Int
        let maxFields: Int
        let fields: HTTPHeaders
    }

    /// Slots, one entry each, in pairs: a section's hash chooses a pair, and the section takes
    /// either slot of it (`pairs`).
    private var slots: [Entry?]
    /// Which slot a section takes, and the sections seen once lately: a section is remembered
    /// the second time it is parsed, so sections each seen once (one carrying a different
    /// validator each time) cost a hash apiece, not an array of their bytes.
    private var pairs = SlotPairs(slotCount: HTTPFieldSectionMemo.slotCount)
    /// The seed of the hash.
    private let seed = UInt64.random(in: 0 ... .max)
    /// Times a section was found remembered, for tests.
    private(set) var found = 0

    /// Slots in the table, a power of two: the sections of a few dozen different clients.
    static let slotCount = 64

    init() {
        slots = Array(repeating: nil, count: Self.slotCount)
    }

    /// The hash of `section` that `fields(of:hash:maxFields:parse:)` takes (`HTTPHeadMemo`
    /// makes it, then hashes the request line seeded with it).
    func hash(_ section: UnsafeRawBufferPointer) -> Int {
        Int(truncatingIfNeeded: ContentHash.xxh64(section, seed: seed))
    }

    /// The fields of `section` (of hash `hash`, parsed under `maxFields`): the remembered ones
    /// when it was parsed before under the same limit, else `parse()`'s, remembered if it was
    /// parsed just before. What `parse` throws is thrown and nothing is remembered.
    func fields(
        of section: UnsafeRawBufferPointer, hash: Int, maxFields: Int, parse: () throws(HTTPParseError) -> HTTPHeaders
    ) throws(HTTPParseError) -> HTTPHeaders {
        guard section.count <= HTTPHeadMemo.maxHeadBytes else { return try parse() }
        let first = Self.pair(hash)
        for slot in first ... first + 1 {
            guard let entry = slots[slot], entry.hash == hash, entry.maxFields == maxFields,
                  entry.bytes.count == section.count,
                  section.isEmpty || entry.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, section.baseAddress!, section.count) == 0 })
            else { continue }
            pairs.found(slot)
            found += 1
            return entry.fields
        }
        let fields = try parse()
        if let slot = pairs.slotToFill(for: hash, isTaken: { slots[$0] != nil }) {
            slots[slot] = Entry(bytes: Array(section), hash: hash, maxFields: maxFields, fields: fields)
        }
        return fields
    }

    /// The first of the two slots a section of hash `hash` may take (the second follows it).
    static func pair(_ hash: Int) -> Int { SlotPairs.pair(hash, slotCount: slotCount) }
}
