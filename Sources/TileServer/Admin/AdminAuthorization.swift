/// Checks `Authorization: Bearer <token>` against the configured admin token.
enum AdminAuthorization {
    /// Whether `header` carries `token`. Compares in time independent of where the bytes differ,
    /// so response timing does not reveal a prefix of the token.
    static func allows(_ header: String?, token: String) -> Bool {
        guard let header else { return false }
        let prefix = "Bearer "
        guard header.count > prefix.count, header.prefix(prefix.count).lowercased() == prefix.lowercased() else { return false }
        return constantTimeEquals(Array(header.utf8.dropFirst(prefix.utf8.count)), Array(token.utf8))
    }

    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0 ..< max(a.count, b.count) {
            let left = index < a.count ? a[index] : 0
            let right = index < b.count ? b[index] : 0
            difference |= left ^ right
        }
        return difference == 0
    }
}
