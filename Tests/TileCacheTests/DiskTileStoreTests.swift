import Foundation
import Testing
import Hashing
import TileCache

/// The generic disk store: round trips, the record's checks, atomic replacement, removal.
@Suite struct DiskTileStoreTests {
    let root = NSTemporaryDirectory() + "disk-store-" + UUID().uuidString

    func store() -> DiskTileStore<Int> {
        DiskTileStore(root: root, relativePath: { "\($0 % 10)/\($0).bin" }, key: { path in
            path.hasSuffix(".bin") ? Int(path.split(separator: "/").last!.dropLast(4)) : nil
        })
    }

    @Test func recordsRoundTrip() throws {
        let store = store()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let tile = DiskRecord(kind: .tile, body: Array(0 ... 255) + [1, 2, 3], storedAt: 1_700_000_000, lastModified: 1000)
        let none = DiskRecord(kind: .noTile, storedAt: 5)
        try store.write(tile, for: 42)
        try store.write(none, for: 7)
        #expect(try store.read(42) == tile)
        #expect(try store.read(7) == none)
        #expect(try store.read(8) == nil)
        try store.write(none, for: 42)  // replaced
        #expect(try store.read(42) == none)
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/2")
        #expect(names == ["42.bin"])  // no temporary file left behind
    }

    @Test func everyDamagedByteIsDetected() throws {
        let store = store()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let record = DiskRecord(kind: .tile, body: Array(repeating: 0xAB, count: 100), storedAt: 1, lastModified: nil)
        try store.write(record, for: 3)
        let good = Array(FileManager.default.contents(atPath: store.path(for: 3))!)
        for index in good.indices {
            var bad = good
            bad[index] ^= 0x01
            _ = FileManager.default.createFile(atPath: store.path(for: 3), contents: Data(bad))
            #expect(throws: CacheError.self) { try store.read(3) }
            #expect(!FileManager.default.fileExists(atPath: store.path(for: 3)))  // deleted
        }
        for length in [0, 10, 47, 48, good.count - 1] {
            _ = FileManager.default.createFile(atPath: store.path(for: 3), contents: Data(good.prefix(length)))
            #expect(throws: CacheError.self) { try store.read(3) }
        }
    }

    @Test func removeAllWithAPredicateAndWhole() throws {
        let store = store()
        defer { try? FileManager.default.removeItem(atPath: root) }
        for key in 0 ..< 20 { try store.write(DiskRecord(kind: .noTile, storedAt: key), for: key) }
        #expect(try store.removeAll { $0 % 2 == 0 } == 10)
        #expect(try store.read(4) == nil)
        #expect(try store.read(5) != nil)
        #expect(try store.removeAll() == nil)
        #expect(try store.read(5) == nil)
        try store.write(DiskRecord(kind: .noTile, storedAt: 1), for: 5)  // the folder is made again
        #expect(try store.read(5) != nil)
    }

    @Test func aFolderUnderAFileIsAnIOError() throws {
        _ = FileManager.default.createFile(atPath: root, contents: Data([1]))
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = store()
        #expect(try store.read(1) == nil)
        #expect(throws: CacheError.self) { try store.write(DiskRecord(kind: .noTile, storedAt: 1), for: 1) }
    }

    /// The format, byte by byte: the body first, then the trailer, and the body's hash is the
    /// XXH64 its ETag is made of.
    @Test func theBodyComesFirstAndItsHashIsItsETagsHash() throws {
        let body: [UInt8] = Array(0 ... 99)
        let record = DiskRecord(kind: .tile, body: body, storedAt: 7, lastModified: nil)
        let bytes = record.encoded()
        func word(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        #expect(bytes.count == body.count + 48)
        #expect(Array(bytes.prefix(body.count)) == body)
        #expect(Array(bytes[100 ..< 108]) == Array("TLC2".utf8) + [1, 0, 0, 0])
        #expect(Array(bytes[108 ..< 116]) == word(7))
        #expect(Array(bytes[116 ..< 124]) == word(UInt64(bitPattern: Int64.min)))  // unknown
        #expect(Array(bytes[124 ..< 132]) == word(100))
        #expect(record.bodyHash == ContentHash.xxh64(body))
        #expect(Array(bytes[132 ..< 140]) == word(ContentHash.xxh64(body)))
        #expect(Array(bytes[140 ..< 148]) == word(ContentHash.xxh64(Array(bytes[100 ..< 140]))))
        #expect(try DiskRecord.decode(bytes).get() == record)
    }

    /// A record is checked against the hash of the bytes first served: a body that is not
    /// those bytes (a copy read back wrong) is damaged, never read as a tile.
    @Test func aBodyThatIsNotTheBytesHashedIsDamaged() {
        let served: [UInt8] = [1, 2, 3, 4]
        let good = DiskRecord(kind: .tile, body: served, storedAt: 1, bodyHash: ContentHash.xxh64(served))
        #expect((try? DiskRecord.decode(good.encoded()).get()) == good)
        let readBackWrong = DiskRecord(kind: .tile, body: [1, 2, 3, 5], storedAt: 1, bodyHash: ContentHash.xxh64(served))
        #expect(DiskRecord.decode(readBackWrong.encoded()) == .failure(.damaged("body checksum mismatch")))
    }

    /// A file of the first format (magic "TLC1" first, then a CRC-32) is deleted and read as
    /// none stored: a miss the next fill replaces, not a damaged file.
    @Test(arguments: [0, 100])
    func aRecordOfTheFirstFormatIsDeletedAsAMiss(bodyBytes: Int) throws {
        let store = store()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The first format: magic, kind, 3 zeros, storedAt, lastModified, length, CRC-32, body.
        func word(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian, Array.init) }
        let first = Array("TLC1".utf8) + [bodyBytes > 0 ? 1 : 0, 0, 0, 0] + word(1) + word(UInt64(bitPattern: Int64.min))
            + word(UInt64(bodyBytes)) + [0x12, 0x34, 0x56, 0x78] + [UInt8](repeating: 0xAB, count: bodyBytes)
        _ = FileManager.default.createFile(atPath: store.path(for: 4), contents: Data(first))
        #expect(try store.read(4) == nil)
        #expect(!FileManager.default.fileExists(atPath: store.path(for: 4)))
        #expect(DiskRecord.decode(first) == .failure(.outdated))
        // The same bytes under another magic are damaged, not outdated.
        guard case .failure(.damaged) = DiskRecord.decode(Array("TLC0".utf8) + first.dropFirst(4)) else {
            Issue.record("not reported damaged"); return
        }
    }
}
