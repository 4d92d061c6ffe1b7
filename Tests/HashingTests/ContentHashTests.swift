// XXH64 against values from the reference implementation (Python's `xxhash` package, which
// wraps it), with and without a seed: the ETags, the parse memos' slots and the cache records'
// checks depend on it.

import Hashing
import Testing

@Suite struct ContentHashTests {
    @Test func unseededValuesAreTheReferenceOnes() {
        #expect(ContentHash.xxh64([UInt8]()) == 0xEF46_DB37_51D8_E999)
        #expect(ContentHash.xxh64(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(ContentHash.xxh64(Array("Nobody inspects the spammish repetition".utf8)) == 0xFBCE_A83C_8A37_8BF1)
    }

    @Test func seededValuesAreTheReferenceOnes() {
        // xxhash.xxh64(b"GET /3/3/6.png HTTP/1.1\r\nHost: x\r\n\r\n", seed=0x9E3779B97F4A7C15)
        let head = Array("GET /3/3/6.png HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        #expect(ContentHash.xxh64(head, seed: 0x9E37_79B9_7F4A_7C15) == 0x5262_69F4_2E98_5BAB)
        // xxhash.xxh64(bytes(range(100)), seed=12345): the 32-byte stripes, then 8-, 4- and 1-byte tails.
        #expect(ContentHash.xxh64((0 ..< 100).map { UInt8($0) }, seed: 12345) == 0x028B_A1AE_2DE4_DE27)
    }
}
