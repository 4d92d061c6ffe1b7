// A full memory cache admits a new entry only when it is asked for far more often than the entry
// it would evict first (TinyLFU with a margin), counting requests in a count-min sketch.

import Testing

@testable import TileCache

@Suite struct AdmissionTests {
    @Test func theSketchCountsKeysAndHalvesItsCountsAsTheyAge() {
        let sketch = FrequencySketch(width: 64)
        #expect(sketch.resetInterval == 640)
        for _ in 0 ..< 100 { sketch.record(0x1234_5678_9ABC_DEF0) }
        sketch.record(0x0FED_CBA9_8765_4321)
        #expect(sketch.estimate(0x1234_5678_9ABC_DEF0) == 100)
        #expect(sketch.estimate(0x0FED_CBA9_8765_4321) == 1)
        #expect(sketch.estimate(0x5555_AAAA_5555_AAAA) == 0)
        // The 640th record halves every counter.
        for _ in 0 ..< 538 { sketch.record(0x0FED_CBA9_8765_4321) }
        #expect(sketch.estimate(0x1234_5678_9ABC_DEF0) == 100)
        sketch.record(0x0FED_CBA9_8765_4321)
        #expect(sketch.estimate(0x1234_5678_9ABC_DEF0) == 50)
        #expect(sketch.estimate(0x0FED_CBA9_8765_4321) == 127, "540 records saturate at 255, halved")
    }

    /// One shard, keys their own hashes: which key is evicted first, and every count, is known.
    private func cache() -> MemoryCache<Int, String> {
        MemoryCache(capacity: 100, shardCount: 1, shardHash: { $0 })
    }

    private func ask(_ cache: MemoryCache<Int, String>, for key: Int, times: Int) {
        for _ in 0 ..< times { _ = cache.value(for: key, countingRequest: true) }
    }

    @Test func whatFitsIsAdmittedAndWhatNeverFitsIsNot() {
        let cache = cache()
        #expect(cache.admits(1, cost: 40))
        cache.insert("one", for: 1, cost: 40)
        #expect(cache.admits(2, cost: 60))
        #expect(!cache.admits(2, cost: 101), "larger than the cache")
    }

    @Test func aFullCacheAdmitsOnlyAKeyAskedForFarMoreOftenThanItsNextVictim() {
        let cache = cache()
        cache.insert("one", for: 1, cost: 40)
        cache.insert("two", for: 2, cost: 40)
        ask(cache, for: 2, times: 2)  // 1 is now the least recently used: never asked for
        ask(cache, for: 3, times: 2)
        #expect(!cache.admits(3, cost: 40), "asked for twice: not more than 2 × 0 + 2")
        ask(cache, for: 3, times: 1)
        #expect(cache.admits(3, cost: 40))

        ask(cache, for: 1, times: 5)  // 2, asked for twice, is now the least recently used
        ask(cache, for: 4, times: 6)
        #expect(!cache.admits(4, cost: 40), "not more than 2 × 2 + 2")
        ask(cache, for: 4, times: 1)
        #expect(cache.admits(4, cost: 40))
        #expect(cache.value(for: 4) == nil, "admitting stores nothing: the caller does")
    }

    /// A large entry may evict several: it must outrank each of them.
    @Test func everyEntryAnInsertWouldEvictIsWeighed() {
        let cache = cache()
        cache.insert("one", for: 1, cost: 10)
        cache.insert("two", for: 2, cost: 80)
        ask(cache, for: 2, times: 10)  // 1 is the least recently used, 2 the next
        ask(cache, for: 3, times: 3)
        #expect(cache.admits(3, cost: 15), "evicts 1 alone: asked for 3 times, against 0")
        #expect(!cache.admits(3, cost: 50), "would evict 2 as well: asked for 10 times")
        #expect(cache.admits(3, cost: 5), "fits")
    }

    @Test func aSaturatedCounterStillYieldsToAnotherSaturatedOne() {
        let sketch = FrequencySketch(width: 64)
        #expect(sketch.outranks(3, 0))
        #expect(!sketch.outranks(2, 0))
        #expect(!sketch.outranks(22, 10))
        #expect(sketch.outranks(23, 10))
        #expect(sketch.outranks(255, 255))
        #expect(!sketch.outranks(254, 200))
    }

    @Test func requestsAreCountedOnlyWhenTheCallerSaysSo() {
        let cache = cache()
        cache.insert("one", for: 1, cost: 60)
        for _ in 0 ..< 10 { _ = cache.value(for: 2) }
        #expect(!cache.admits(2, cost: 60))
        ask(cache, for: 2, times: 3)
        #expect(cache.admits(2, cost: 60))
        #expect(cache.value(for: 1, countingRequest: true) == "one")
    }
}
