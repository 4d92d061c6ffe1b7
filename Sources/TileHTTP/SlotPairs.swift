/// Which slot of a two-way table a hashed key takes, for the loop's memos (`HTTPHeadMemo`,
/// `HTTPFieldSectionMemo`), which keep their entries themselves: a hash chooses a pair of
/// slots; a key is remembered the second time it is seen (the last two hashes of each pair seen
/// and not remembered are kept, newest first, so two keys that take turns in a pair are both
/// remembered), in an empty slot of its pair first, else in the one found or filled less lately.
struct SlotPairs {
    /// Slots in the table, a power of two.
    let slotCount: Int
    /// For each pair, which of its two slots (0 or 1) was found or filled last.
    private var recent: [UInt8]
    /// For each pair, the hashes of the last two keys seen there and not remembered (newest in
    /// the pair's first slot).
    private var seen: [Int]

    init(slotCount: Int) {
        precondition(slotCount >= 2 && slotCount & (slotCount - 1) == 0, "slotCount must be a power of two")
        self.slotCount = slotCount
        recent = Array(repeating: 0, count: slotCount / 2)
        seen = Array(repeating: 0, count: slotCount)
    }

    /// The first of the two slots a key of hash `hash` may take (the second follows it).
    static func pair(_ hash: Int, slotCount: Int) -> Int { hash & (slotCount - 2) }

    /// The first of the two slots a key of hash `hash` may take.
    func pair(_ hash: Int) -> Int { Self.pair(hash, slotCount: slotCount) }

    /// Notes that `slot` was found holding the key looked up.
    mutating func found(_ slot: Int) {
        recent[slot >> 1] = UInt8(slot & 1)
    }

    /// The slot a key of hash `hash`, not remembered, is to be remembered in, marked as filled
    /// last; nil the first time it is seen lately (noted, so the next time it is remembered).
    /// `isTaken` tells whether a slot holds an entry.
    mutating func slotToFill(for hash: Int, isTaken: (Int) -> Bool) -> Int? {
        let first = pair(hash)
        guard seen[first] == hash || seen[first + 1] == hash else {
            seen[first + 1] = seen[first]
            seen[first] = hash
            return nil
        }
        let slot = !isTaken(first) ? first : !isTaken(first + 1) ? first + 1 : first + 1 - Int(recent[first >> 1])
        found(slot)
        return slot
    }
}
