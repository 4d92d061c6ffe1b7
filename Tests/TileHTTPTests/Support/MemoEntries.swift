// Memo entries for tests that drive an HTTPHeadMemo without a parser.

import Testing
@testable import TileHTTP

extension HTTPHeadMemo {
    /// The entry `head` is remembered under (after it is parsed twice; a GET of "/").
    func rememberedEntry(_ head: String) throws -> HTTPHeadMemo.Entry {
        let bytes = Array(head.utf8)
        let parsed = HTTPRequest(method: .get, target: "/", pathSegments: [], query: nil)
        let request = bytes.withUnsafeBytes { bytes in
            guard case .unknown(let hash) = lookUp(bytes) else { return parsed }
            _ = remember(bytes, hash: hash, as: parsed)
            return remember(bytes, hash: hash, as: parsed)
        }
        return try #require(request.remembered)
    }
}
