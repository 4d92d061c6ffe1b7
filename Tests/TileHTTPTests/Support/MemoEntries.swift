// Memo entries for tests that drive an HTTPHeadMemo without a parser.

import Testing
@testable import TileHTTP

extension HTTPHeadMemo {
    /// The entry `head` is remembered under (after it is parsed twice; a GET of "/").
    func rememberedEntry(_ head: String) throws -> HTTPHeadMemo.Entry {
        let bytes = Array(head.utf8)
        let parsed = HTTPRequest(method: .get, target: "/", pathSegments: [], query: nil)
        let request = bytes.withUnsafeBytes { bytes in
            guard case .unknown(let hash, _) = lookUp(bytes) else { return parsed }
            _ = remember(bytes, hash: hash, as: parsed)
            return remember(bytes, hash: hash, as: parsed)
        }
        return try #require(request.remembered)
    }

    /// `count` remembered entries of heads "GET /0", "GET /1"… whose hashes choose distinct
    /// pairs of slots (the hash is seeded per process), so none takes another's slot.
    func entriesInDistinctPairs(_ count: Int) throws -> [HTTPHeadMemo.Entry] {
        var pairsTaken: Set<Int> = []
        var heads: [String] = []
        for index in 0 ..< 1000 where heads.count < count {
            let head = "GET /\(index) HTTP/1.1\r\n\r\n"
            guard case .unknown(let hash, _) = Array(head.utf8).withUnsafeBytes({ lookUp($0) }) else { continue }
            if pairsTaken.insert(HTTPHeadMemo.pair(hash)).inserted { heads.append(head) }
        }
        let entries = try heads.map { try rememberedEntry($0) }
        try #require(entries.count == count)
        return entries
    }
}
