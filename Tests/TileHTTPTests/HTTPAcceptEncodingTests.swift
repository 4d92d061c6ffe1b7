import Testing
import TileHTTP

@Suite struct HTTPAcceptEncodingTests {
    @Test("Accept-Encoding with q-values (RFC 9110 §12.5.3)", arguments: [
        ([], false),
        (["gzip"], true),
        (["gzip, deflate, br"], true),
        (["deflate", "gzip"], true),
        (["GZIP;Q=0.2"], true),
        (["gzip;q=0"], false),
        (["gzip; q=0.000"], false),
        (["gzip;q=0, *"], false),
        (["*"], true),
        (["*;q=0"], false),
        (["identity"], false),
        (["br, identity;q=0.5"], false),
        (["x-gzip"], true),
        (["gzip;q=garbage"], false),
        (["", " , "], false),
    ])
    func gzip(_ values: [String], _ accepted: Bool) {
        #expect(HTTPAcceptEncoding.accepts("gzip", in: values) == accepted, "\(values)")
    }
}
