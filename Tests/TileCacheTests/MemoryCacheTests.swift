import Testing

import TileCache

@Suite struct MemoryCacheTests {
    @Test func evictsLeastRecentlyUsedByBytes() {
        let cache = MemoryCache<String, String>(capacity: 100, shardCount: 1)
        cache.insert("A", for: "a", cost: 40)
        cache.insert("B", for: "b", cost: 40)
        #expect(cache.value(for: "a") == "A")  // b is now the least recently used
        cache.insert("C", for: "c", cost: 40)
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == "A")
        #expect(cache.value(for: "c") == "C")
        cache.insert("D", for: "d", cost: 90)  // evicts a (least recent), then c
        #expect(cache.value(for: "c") == nil)
        #expect(cache.value(for: "a") == nil)
        #expect(cache.statistics.bytes == 90)
        #expect(cache.statistics.count == 1)
        #expect(cache.statistics.evictions == 3)
    }

    @Test func evictsAsManyEntriesAsTheNewCostNeeds() {
        let cache = MemoryCache<Int, Int>(capacity: 10, shardCount: 1)
        for key in 0..<10 { cache.insert(key, for: key, cost: 1) }
        cache.insert(99, for: 99, cost: 4)
        #expect((0..<4).allSatisfy { cache.value(for: $0) == nil })
        #expect((4..<10).allSatisfy { cache.value(for: $0) == $0 })
        #expect(cache.statistics.bytes == 10)
    }

    @Test func countsHitsMissesAndEvictions() {
        let cache = MemoryCache<Int, String>(capacity: 2, shardCount: 1)
        #expect(cache.value(for: 1) == nil)
        cache.insert("one", for: 1, cost: 1)
        cache.insert("two", for: 2, cost: 1)
        #expect(cache.value(for: 1) == "one")
        #expect(cache.value(for: 2) == "two")
        cache.insert("three", for: 3, cost: 1)
        #expect(cache.value(for: 1) == nil)
        let statistics = cache.statistics
        #expect(statistics == CacheStatistics(hits: 2, misses: 2, evictions: 1, bytes: 2, count: 2, capacity: 2))
        #expect(statistics.hitRatio == 0.5)
    }

    @Test func replacingAValueRecountsItsBytes() {
        let cache = MemoryCache<Int, String>(capacity: 100, shardCount: 1)
        cache.insert("small", for: 1, cost: 10)
        cache.insert("large", for: 1, cost: 70)
        #expect(cache.value(for: 1) == "large")
        #expect(cache.statistics.bytes == 70)
        #expect(cache.statistics.count == 1)
    }

    @Test func neverStoresAnEntryLargerThanItsShard() {
        let cache = MemoryCache<Int, String>(capacity: 100, shardCount: 4)
        cache.insert("fits", for: 1, cost: 25)
        cache.insert("too big", for: 2, cost: 26)
        #expect(cache.value(for: 1) == "fits")
        #expect(cache.value(for: 2) == nil)
        cache.insert("now too big", for: 1, cost: 30)
        #expect(cache.value(for: 1) == nil)  // the older value does not linger
        #expect(cache.statistics.bytes == 0)
    }

    @Test func capacityZeroStoresNothing() async throws {
        let cache = MemoryCache<Int, String>(capacity: 0)
        cache.insert("free", for: 1, cost: 0)
        cache.insert("paid", for: 2, cost: 1)
        let filled = try await cache.value(for: 3) { .store("filled", cost: 0) }
        #expect(filled == "filled")
        #expect(cache.value(for: 1) == nil)
        #expect(cache.value(for: 2) == nil)
        #expect(cache.value(for: 3) == nil)
        #expect(cache.statistics.count == 0)
        #expect(cache.statistics.bytes == 0)
    }

    @Test func removesByPredicate() {
        struct TileKey: Hashable, Sendable { var z: Int, x: Int, y: Int }
        let cache = MemoryCache<TileKey, Int>(capacity: 100_000)
        for z in 0..<4 {
            for x in 0..<(1 << z) { cache.insert(z, for: TileKey(z: z, x: x, y: 0), cost: 10) }
        }
        #expect(cache.statistics.count == 15)
        cache.removeAll { $0.z >= 2 }
        #expect(cache.statistics.count == 3)
        #expect(cache.statistics.bytes == 30)
        #expect(cache.value(for: TileKey(z: 1, x: 1, y: 0)) == 1)
        #expect(cache.value(for: TileKey(z: 2, x: 0, y: 0)) == nil)
    }

    @Test func removesOneKeyAndEverything() {
        let cache = MemoryCache<Int, Int>(capacity: 100, shardCount: 1)
        for key in 0..<10 { cache.insert(key, for: key, cost: 5) }
        cache.removeValue(for: 3)
        #expect(cache.value(for: 3) == nil)
        #expect(cache.statistics.bytes == 45)
        cache.removeAll()
        #expect(cache.statistics.count == 0)
        #expect(cache.statistics.bytes == 0)
        cache.insert(1, for: 1, cost: 5)  // still usable after a full clear
        #expect(cache.value(for: 1) == 1)
    }

    @Test(arguments: [1, 3, 8, 16]) func splitsCapacityOverPowerOfTwoShards(shardCount: Int) {
        let cache = MemoryCache<Int, Int>(capacity: 1_000, shardCount: shardCount)
        for key in 0..<1_000 { cache.insert(key, for: key, cost: 7) }
        let statistics = cache.statistics
        #expect(statistics.bytes <= 1_000)
        #expect(statistics.bytes == statistics.count * 7)
        #expect(statistics.capacity == 1_000)
    }
}
