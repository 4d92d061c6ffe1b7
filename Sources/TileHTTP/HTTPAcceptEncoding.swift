/// `Accept-Encoding` (RFC 9110 §12.5.3): which content codings a client takes, with q-values.
public enum HTTPAcceptEncoding {
    /// Whether the header values `values` (every `Accept-Encoding` line) accept `coding`
    /// (e.g. "gzip"): listed with q > 0 (`x-gzip` counts as `gzip`, §8.4.1.3), or not listed and
    /// `*` has q > 0. `gzip;q=0` refuses, whatever `*` says. No header at all: not accepted
    /// (tilelayer's choice, so a plain `curl` gets the bytes it can read).
    public static func accepts(_ coding: String, in values: [String]) -> Bool {
        var named: Double?
        var wildcard: Double?
        for value in values {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";")
                guard let first = parts.first else { continue }
                var name = first.trimmingSpaces.lowercased()
                if name == "x-" + coding { name = coding }
                var quality = 1.0
                for parameter in parts.dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1)
                    guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "q" else { continue }
                    quality = Double(pair[1].trimmingSpaces).map { min(max($0, 0), 1) } ?? 0
                }
                if name == coding { named = max(named ?? 0, quality) }
                if name == "*" { wildcard = max(wildcard ?? 0, quality) }
            }
        }
        if let named { return named > 0 }
        return (wildcard ?? 0) > 0
    }
}
