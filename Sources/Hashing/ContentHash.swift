/// XXH64 (xxHash, 64-bit): a fast content hash, stable across processes and machines. Unseeded,
/// it is the hash of a tile's strong ETag (so ETags survive restarts and agree between
/// replicas) and of the check of a stored cache record (so one pass over a tile read back
/// checks it and labels it); seeded, the slot of a remembered request head.
public enum ContentHash {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The strong ETag of `bytes`: `"` + 16 hex digits + `"`.
    public static func etag(of bytes: [UInt8]) -> String {
        etag(hash: xxh64(bytes))
    }

    /// The strong ETag of bytes whose XXH64 is `hash`.
    public static func etag(hash: UInt64) -> String {
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// XXH64 of `bytes` with `seed`.
    public static func xxh64(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { xxh64($0, seed: seed) }
    }

    /// XXH64 of raw bytes with `seed`.
    public static func xxh64(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var index = 0
        var hash: UInt64
        func word(_ at: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)) }
        func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
            rotate(acc &+ input &* prime2, 31) &* prime1
        }
        func merge(_ acc: UInt64, _ value: UInt64) -> UInt64 {
            (acc ^ round(0, value)) &* prime1 &+ prime4
        }
        if count >= 32 {
            var v1 = seed &+ prime1 &+ prime2, v2 = seed &+ prime2, v3 = seed, v4 = seed &- prime1
            while index + 32 <= count {
                v1 = round(v1, word(index)); v2 = round(v2, word(index + 8))
                v3 = round(v3, word(index + 16)); v4 = round(v4, word(index + 24))
                index += 32
            }
            hash = rotate(v1, 1) &+ rotate(v2, 7) &+ rotate(v3, 12) &+ rotate(v4, 18)
            hash = merge(merge(merge(merge(hash, v1), v2), v3), v4)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(count)
        while index + 8 <= count {
            hash ^= round(0, word(index))
            hash = rotate(hash, 27) &* prime1 &+ prime4
            index += 8
        }
        if index + 4 <= count {
            let half = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)))
            hash ^= half &* prime1
            hash = rotate(hash, 23) &* prime2 &+ prime3
            index += 4
        }
        while index < count {
            hash ^= UInt64(bytes[index]) &* prime5
            hash = rotate(hash, 11) &* prime1
            index += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }

    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}
