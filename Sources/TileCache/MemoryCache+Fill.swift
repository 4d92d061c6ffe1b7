/// Coalesced fills: however many callers miss a key at once, one of them
/// produces the value and all receive it.
extension MemoryCache {
    /// The stored value for `key`, or joins the fill in progress, or hands the
    /// caller the duty to fill — without waiting and without allocating on a hit.
    ///
    /// For Dispatch code:
    /// ```swift
    /// switch cache.lookupOrJoin(key) {
    /// case .hit(let tile): respond(.success(tile))
    /// case .joined(let fill): fill.onCompletion(respond)
    /// case .mustFill(let token):
    ///     queue.async {
    ///         let result = Result { try provider.fill(key) }  // a CacheFillResult
    ///         cache.complete(token, with: result)
    ///         respond(result.map(\.value))
    ///     }
    /// }
    /// ```
    /// `countingRequest`: the request is counted in its shard's frequency sketch (with the
    /// lookup, under the same lock), for `admits`; a caller counts each request once.
    @inlinable
    public func lookupOrJoin(_ key: Key, countingRequest: Bool = false) -> CacheLookup<Key, Value> {
        let hash = mixedHash(key)
        return shard(forHash: hash).lookupOrJoin(key, counting: countingRequest ? hash : nil)
    }

    /// `lookupOrJoin(_:countingRequest:)` for values that age: a stored value `isFresh` refuses
    /// is a miss. It stays stored (and is handed to the filler as `CacheFillToken.expired`, to
    /// serve or check again) until the fill stores its replacement; concurrent callers join
    /// that one fill.
    @inlinable
    public func lookupOrJoin(
        _ key: Key, countingRequest: Bool = false, isFresh: (Value) -> Bool
    ) -> CacheLookup<Key, Value> {
        let hash = mixedHash(key)
        return shard(forHash: hash).lookupOrJoin(key, counting: countingRequest ? hash : nil, isFresh: isFresh)
    }

    /// Ends the fill `token` stands for: stores a `.store` result unless a clear
    /// retired the fill after it started, then passes the value or error to every
    /// waiter (errors are never stored). Later calls with the same token do nothing.
    public func complete(_ token: CacheFillToken<Key, Value>, with result: Result<CacheFillResult<Value>, any Error>) {
        token.complete(with: result)
    }

    /// The stored value for `key`, or else the result of one `fill` shared by all
    /// concurrent callers for `key`.
    ///
    /// A hit returns without suspending. Otherwise the caller either joins the fill
    /// in progress or runs `fill` itself; its value or error reaches every waiter.
    /// A cancelled filler's `CancellationError` reaches the waiters like any error,
    /// and, like any error, is not stored.
    public func value(
        for key: Key,
        orFill fill: () async throws -> CacheFillResult<Value>
    ) async throws -> Value {
        switch lookupOrJoin(key) {
        case .hit(let value):
            return value
        case .joined(let pending):
            return try await pending.value
        case .mustFill(let token):
            do {
                let result = try await fill()
                token.complete(with: .success(result))
                return result.value
            } catch {
                token.complete(with: .failure(error))
                throw error
            }
        }
    }
}
