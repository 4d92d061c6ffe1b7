import TileHTTP

extension HTTPRequest {
    /// The request with only the query parameters whose decoded name passes `keep` (the rest
    /// of the request, and the kept parameters' raw text, unchanged).
    func keepingQuery(_ keep: (String) -> Bool) -> HTTPRequest {
        guard let query else { return self }
        var copy = self
        copy.query = query.split(separator: "&").filter { pair in
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return keep(PercentDecoding.decodeQueryComponent(name) ?? String(name))
        }.joined(separator: "&")
        return copy
    }
}
