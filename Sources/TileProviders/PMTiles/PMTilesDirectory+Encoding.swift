extension PMTilesDirectory {
    /// The uncompressed bytes of this directory (spec §4.3): entry count, then the columns of
    /// delta-encoded tile ids, run lengths, lengths and offsets (0 = right after the previous
    /// entry's bytes, else offset + 1), all as varints.
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 6 + 8)
        appendVarint(UInt64(entries.count), to: &out)
        var lastID: UInt64 = 0
        for entry in entries {
            appendVarint(entry.tileID - lastID, to: &out)
            lastID = entry.tileID
        }
        for entry in entries { appendVarint(UInt64(entry.runLength), to: &out) }
        for entry in entries { appendVarint(UInt64(entry.length), to: &out) }
        for (index, entry) in entries.enumerated() {
            if index > 0, entry.offset == entries[index - 1].offset + UInt64(entries[index - 1].length) {
                appendVarint(0, to: &out)
            } else {
                appendVarint(entry.offset + 1, to: &out)
            }
        }
        return out
    }

    /// Unsigned LEB128.
    private func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }
}

/// The root directory and leaf directories for a sorted list of tile entries, gzip-compressed.
struct PMTilesDirectoryLayout {
    /// The root, which must fit with the header in the first 16 KiB (spec §3: a reader's first
    /// request is 16384 bytes).
    var root: [UInt8]
    /// Every leaf directory, one after another (root entries point into it).
    var leaves: [UInt8]
    /// How many leaf directories.
    var leafCount: Int

    /// Most bytes the root may take.
    static let maxRootBytes = 16_384 - PMTilesHeader.size

    /// All entries in the root when it fits; otherwise leaves of `leafSize` entries (starting at
    /// 4096 or entries / 3500, growing by 1.2× until the root fits — go-pmtiles' choice).
    init(entries: [PMTilesDirectory.Entry], maxRootBytes: Int = maxRootBytes) {
        let whole = Deflate.gzip(PMTilesDirectory(entries: entries).encoded())
        if whole.count <= maxRootBytes {
            self.init(root: whole, leaves: [], leafCount: 0)
            return
        }
        var leafSize = max(4096.0, Double(entries.count) / 3500)
        while true {
            let attempt = Self(entries: entries, leafSize: Int(leafSize))
            if attempt.root.count <= maxRootBytes || Int(leafSize) >= entries.count {
                self = attempt
                return
            }
            leafSize *= 1.2
        }
    }

    /// A layout with `leafSize` entries per leaf.
    init(entries: [PMTilesDirectory.Entry], leafSize: Int) {
        var rootEntries: [PMTilesDirectory.Entry] = []
        var leaves: [UInt8] = []
        var start = 0
        while start < entries.count {
            let chunk = Array(entries[start ..< min(start + leafSize, entries.count)])
            let bytes = Deflate.gzip(PMTilesDirectory(entries: chunk).encoded())
            rootEntries.append(.init(tileID: chunk[0].tileID, offset: UInt64(leaves.count),
                                     length: UInt32(bytes.count), runLength: 0))
            leaves += bytes
            start += leafSize
        }
        self.init(root: Deflate.gzip(PMTilesDirectory(entries: rootEntries).encoded()), leaves: leaves,
                  leafCount: rootEntries.count)
    }

    private init(root: [UInt8], leaves: [UInt8], leafCount: Int) {
        self.root = root
        self.leaves = leaves
        self.leafCount = leafCount
    }
}
