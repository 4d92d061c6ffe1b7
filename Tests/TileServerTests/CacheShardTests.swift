// How tile keys are spread over the memory cache's shards: a cheap function of the coordinates
// (no second full hash), equal keys to one shard, keys spread over all of them.

import Testing
@testable import TileCache
import TileGeometry
@testable import TileServer
import TileProviders

@Suite struct CacheShardTests {
    @Test func tileKeysSpreadOverEveryShard() {
        let cache = MemoryCache<TileKey, Int>(capacity: 1 << 20, shardHash: TileKey.shardHash)
        var used: [ObjectIdentifier: Int] = [:]
        for x in 0 ..< 16 {
            for y in 0 ..< 16 {
                let key = TileKey(layer: "world", tile: TileCoordinate(z: 4, x: x, y: y), scale: 1)
                used[ObjectIdentifier(cache.shard(for: key)), default: 0] += 1
            }
        }
        #expect(used.count == MemoryCache<TileKey, Int>.defaultShardCount, "256 tiles of one zoom use every shard")
        #expect(used.values.max()! <= 48, "no shard takes far more than its share (16): \(used.values.sorted())")
    }

    @Test func equalKeysHashAndShardAlike() {
        let cache = MemoryCache<TileKey, Int>(capacity: 1 << 20, shardHash: TileKey.shardHash)
        // Equal variables made in different orders: equal keys, so one hash and one shard.
        var forward: [String: String] = [:]
        for (name, value) in [("floor", "2"), ("level", "b"), ("style", "dark")] { forward[name] = value }
        var backward: [String: String] = [:]
        for (name, value) in [("style", "dark"), ("level", "b"), ("floor", "2")] { backward[name] = value }
        let one = TileKey(layer: "world", tile: TileCoordinate(z: 3, x: 1, y: 2), scale: 2, variables: forward)
        let same = TileKey(layer: "wor" + "ld", tile: TileCoordinate(z: 3, x: 1, y: 2), scale: 2, variables: backward)
        #expect(one == same && one.hashValue == same.hashValue)
        #expect(cache.shard(for: one) === cache.shard(for: same))
        // Keys that differ only in variables are different entries.
        let plain = TileKey(layer: "world", tile: TileCoordinate(z: 3, x: 1, y: 2), scale: 2)
        var other = plain
        other.variables = ["floor": "2"]
        #expect(plain != other)
        cache.insert(1, for: plain, cost: 10)
        cache.insert(2, for: other, cost: 10)
        #expect(cache.value(for: plain) == 1 && cache.value(for: other) == 2)
    }

    /// The shard hash also keys the cache's frequency sketch: layers whose names have the same
    /// length, generations and variables must not share their counts.
    @Test func theShardHashTellsLayersGenerationsAndVariablesApart() {
        let tile = TileCoordinate(z: 5, x: 9, y: 12)
        let osm = TileKey(layer: "osm", tile: tile, scale: 1)
        var hashes: Set<Int> = [TileKey.shardHash(osm)]
        hashes.insert(TileKey.shardHash(TileKey(layer: "sat", tile: tile, scale: 1)))
        hashes.insert(TileKey.shardHash(TileKey(layer: "a-much-longer-layer-name", tile: tile, scale: 1)))
        hashes.insert(TileKey.shardHash(TileKey(layer: "osm", tile: tile, scale: 1, variables: ["floor": "2"])))
        hashes.insert(TileKey.shardHash(TileKey(layer: "osm", tile: tile, scale: 1, generation: TileGeneration(build: 2, clears: 0))))
        hashes.insert(TileKey.shardHash(TileKey(layer: "osm", tile: tile, scale: 1, generation: TileGeneration(build: 1, clears: 1))))
        #expect(hashes.count == 6)
    }

    /// `TileKey` and `FileIdentity` hash their fields packed into a few words: keys that differ
    /// in any one field (x and y swapped too) still hash apart, and equal ones alike.
    @Test func packedHashesTellEveryFieldApart() {
        let base = TileKey(layer: "osm", tile: TileCoordinate(z: 5, x: 9, y: 12), scale: 1)
        var variants = [base, TileKey(layer: "sat", tile: base.tile, scale: 1)]
        for change in [
            { (key: inout TileKey) in key.tile.x = 12; key.tile.y = 9 }, { $0.tile.x = 10 },
            { $0.tile.y = 13 }, { $0.tile.z = 6 }, { $0.scale = 2 }, { $0.generation.clears = 1 },
            { $0.generation.build = 7 }, { $0.variables = ["floor": "2"] },
        ] as [(inout TileKey) -> Void] {
            var key = base
            change(&key)
            variants.append(key)
        }
        #expect(Set(variants.map(\.hashValue)).count == variants.count, "\(variants)")
        #expect(base.hashValue == TileKey(layer: "os" + "m", tile: TileCoordinate(z: 5, x: 9, y: 12), scale: 1).hashValue)
        // Variables set and taken away again: the same key as one made without any.
        var emptied = TileKey(layer: "osm", tile: base.tile, scale: 1, variables: ["floor": "2"])
        emptied.variables = [:]
        #expect(emptied == base)
        #expect(emptied.hashValue == base.hashValue)
        #expect(TileKey.shardHash(emptied) == TileKey.shardHash(base))
        #expect(TileKey(layer: "osm", tile: base.tile, scale: 1, variables: [:]) == base)

        let file = FileIdentity(device: 3, inode: 812, size: 4096, modifiedSeconds: 1_700_000_000, modifiedNanoseconds: 5)
        let files = [
            file, FileIdentity(device: 4, inode: 812, size: 4096, modifiedSeconds: 1_700_000_000, modifiedNanoseconds: 5),
            FileIdentity(device: 3, inode: 813, size: 4096, modifiedSeconds: 1_700_000_000, modifiedNanoseconds: 5),
            FileIdentity(device: 3, inode: 812, size: 4097, modifiedSeconds: 1_700_000_000, modifiedNanoseconds: 5),
            FileIdentity(device: 3, inode: 812, size: 4096, modifiedSeconds: 1_700_000_001, modifiedNanoseconds: 5),
            FileIdentity(device: 3, inode: 812, size: 4096, modifiedSeconds: 1_700_000_000, modifiedNanoseconds: 6),
        ]
        #expect(Set(files.map(\.hashValue)).count == files.count)
        #expect(Set(files).count == files.count)
        #expect(file.hashValue == FileIdentity(device: 3, inode: 812, size: 4096, modifiedSeconds: 1_700_000_000,
                                                modifiedNanoseconds: 5).hashValue)
    }

    @Test func aConstantShardFunctionStillCaches() {
        let cache = MemoryCache<TileKey, Int>(capacity: 1 << 20, shardHash: { _ in 0 })
        let keys = (0 ..< 50).map { TileKey(layer: "world", tile: TileCoordinate(z: 6, x: $0, y: 0), scale: 1) }
        for (index, key) in keys.enumerated() { cache.insert(index, for: key, cost: 1) }
        #expect(keys.enumerated().allSatisfy { cache.value(for: $0.element) == $0.offset })
    }
}
