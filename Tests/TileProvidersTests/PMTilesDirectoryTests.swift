import Foundation
import Testing
@testable import TileProviders

@Suite("PMTiles varints, directories and header")
struct PMTilesDirectoryTests {
    /// Unsigned LEB128, written independently of the reader under test.
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7F)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value != 0
        return bytes
    }

    /// A directory serialized per spec §4.3 (ids delta-encoded, offsets 0 when contiguous).
    static func encode(_ entries: [PMTilesDirectory.Entry]) -> [UInt8] {
        var bytes = varint(UInt64(entries.count))
        var last: UInt64 = 0
        for entry in entries {
            bytes += varint(entry.tileID - last)
            last = entry.tileID
        }
        for entry in entries { bytes += varint(UInt64(entry.runLength)) }
        for entry in entries { bytes += varint(UInt64(entry.length)) }
        for (index, entry) in entries.enumerated() {
            let previous = index > 0 ? entries[index - 1] : nil
            let contiguous = previous.map { $0.offset + UInt64($0.length) == entry.offset } ?? false
            bytes += varint(contiguous ? 0 : entry.offset + 1)
        }
        return bytes
    }

    @Test("Varints", arguments: [UInt64(0), 1, 127, 128, 300, 16383, 16384, 1 << 35, UInt64.max])
    func varints(value: UInt64) throws {
        var reader = PMTilesVarintReader(Self.varint(value) + Self.varint(7))
        #expect(try reader.next() == value)
        #expect(try reader.next() == 7)
        #expect(throws: PMTilesFormatError.self) { try reader.next() }
    }

    @Test("Known bytes: 300 is AC 02")
    func knownVarint() throws {
        var reader = PMTilesVarintReader([0xAC, 0x02])
        #expect(try reader.next() == 300)
    }

    @Test("A varint cut short or over 64 bits is an error")
    func badVarints() {
        var cut = PMTilesVarintReader([0x80, 0x80])
        #expect(throws: PMTilesFormatError.self) { try cut.next() }
        var long = PMTilesVarintReader([UInt8](repeating: 0xFF, count: 11) + [0x01])
        #expect(throws: PMTilesFormatError.self) { try long.next() }
    }

    static let entries = [
        PMTilesDirectory.Entry(tileID: 0, offset: 0, length: 10, runLength: 1),
        PMTilesDirectory.Entry(tileID: 1, offset: 10, length: 5, runLength: 3),  // ids 1, 2, 3 share bytes
        PMTilesDirectory.Entry(tileID: 5, offset: 0, length: 10, runLength: 1),  // deduplicated: not contiguous
        PMTilesDirectory.Entry(tileID: 6, offset: 15, length: 7, runLength: 1),
        PMTilesDirectory.Entry(tileID: 100, offset: 0, length: 40, runLength: 0),  // a leaf
    ]

    @Test("Decoding restores ids, run lengths, lengths and offsets (0 = follows the previous)")
    func decoding() throws {
        let directory = try PMTilesDirectory(decoding: Self.encode(Self.entries))
        #expect(directory.entries == Self.entries)
    }

    @Test("Lookups follow run lengths and leaves", arguments: [
        (UInt64(0), PMTilesDirectory.Lookup.tile(offset: 0, length: 10)),
        (2, .tile(offset: 10, length: 5)), (3, .tile(offset: 10, length: 5)), (4, .absent),
        (5, .tile(offset: 0, length: 10)), (6, .tile(offset: 15, length: 7)), (50, .absent),
        (100, .leaf(offset: 0, length: 40)), (5000, .leaf(offset: 0, length: 40)),
    ])
    func lookups(id: UInt64, expected: PMTilesDirectory.Lookup) throws {
        let directory = try PMTilesDirectory(decoding: Self.encode(Self.entries))
        #expect(directory.lookup(id) == expected)
    }

    @Test("A directory claiming more entries than it holds, or cut short, is an error")
    func corrupt() {
        #expect(throws: PMTilesFormatError.self) { try PMTilesDirectory(decoding: Self.varint(1000) + [1, 2]) }
        let bytes = Self.encode(Self.entries)
        #expect(throws: PMTilesFormatError.self) { try PMTilesDirectory(decoding: Array(bytes.dropLast(2))) }
        #expect(PMTilesDirectory(entries: []).lookup(0) == .absent)
    }

    @Test("gzip round trip against Foundation-independent bytes; garbage is an error")
    func gzip() throws {
        // `printf 'hello pmtiles' | gzip -n | xxd -i`
        let compressed: [UInt8] = [
            0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x57,
            0x28, 0xC8, 0x2D, 0xC9, 0xCC, 0x49, 0x2D, 0x06, 0x00, 0x82, 0x27, 0xF9, 0x82, 0x0D, 0x00, 0x00, 0x00,
        ]
        #expect(try Inflate.gunzip(compressed) == Array("hello pmtiles".utf8))
        #expect(throws: PMTilesFormatError.self) { try Inflate.gunzip(Array(compressed.prefix(20))) }
        #expect(throws: PMTilesFormatError.self) { try Inflate.gunzip([1, 2, 3, 4]) }
    }

    @Test("The leaf cache keeps at most its capacity, evicting the least recently used")
    func leafCache() {
        var cache = PMTilesLeafCache(capacity: 2)
        let directory = PMTilesDirectory(entries: [])
        cache.insert(directory, at: 1)
        cache.insert(directory, at: 2)
        _ = cache.directory(at: 1)
        cache.insert(directory, at: 3)
        #expect(cache.count == 2)
        #expect(cache.directory(at: 2) == nil)
        #expect(cache.directory(at: 1) != nil && cache.directory(at: 3) != nil)
    }

    @Test("Header: magic, version and zoom range are checked")
    func header() {
        var bytes = Array("PMTiles".utf8) + [3] + [UInt8](repeating: 0, count: 119)
        bytes[16] = 10  // root length
        bytes[99] = 2  // png
        bytes[101] = 5  // max zoom
        #expect((try? PMTilesHeader(bytes))?.tileType == .png)
        #expect((try? PMTilesHeader(bytes))?.maxZoom == 5)
        var old = bytes
        old[7] = 2
        #expect(throws: PMTilesFormatError.self) { try PMTilesHeader(old) }
        #expect(throws: PMTilesFormatError.self) { try PMTilesHeader(Array(bytes.prefix(100))) }
        #expect(throws: PMTilesFormatError.self) { try PMTilesHeader([0x51] + bytes.dropFirst()) }
    }
}
