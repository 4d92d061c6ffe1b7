/// Matches a Host header against the configured trusted hosts.
enum HostAllowList {
    /// Whether `host` ("name" or "name:port", lower-cased) is trusted: an entry matches the whole
    /// value, or its name part when the entry has no port.
    static func allows(_ host: String, _ allowed: [String]) -> Bool {
        guard host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "@") }) else {
            return false
        }
        let name = hostName(host)
        return allowed.contains { $0 == host || $0 == name }
    }

    /// "name" from "name:port"; IPv6 literals keep their brackets ("[::1]").
    static func hostName(_ host: String) -> String {
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return host }
            return String(host[...close])
        }
        return host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? host
    }
}
