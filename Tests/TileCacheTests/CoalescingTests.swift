import Testing

import TileCache

@Suite(.timeLimit(.minutes(1))) struct CoalescingTests {
    static let waiterCount = 100

    /// Starts `waiterCount` concurrent lookups of one key whose fill waits at
    /// `gate` until every lookup has missed, then returns each lookup's result.
    private func requestConcurrently(
        _ cache: MemoryCache<Int, String>, gate: Gate,
        fill: @escaping @Sendable () async throws -> CacheFillResult<String>
    ) async throws -> [Result<String, any Error>] {
        try await withThrowingTaskGroup(of: Result<String, any Error>.self) { group in
            for _ in 0..<Self.waiterCount {
                group.addTask {
                    do {
                        return .success(try await cache.value(for: 7, orFill: fill))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            try await eventually { cache.statistics.misses == Self.waiterCount }
            gate.open()
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func concurrentMissesShareOneFill() async throws {
        let cache = MemoryCache<Int, String>(capacity: 1_000)
        let gate = Gate()
        try await confirmation(expectedCount: 1) { filled in
            let results = try await requestConcurrently(cache, gate: gate) {
                filled()
                await gate.wait()
                return .store("tile", cost: 4)
            }
            #expect(results.count == Self.waiterCount)
            #expect(results.allSatisfy { (try? $0.get()) == "tile" })
        }
        #expect(cache.value(for: 7) == "tile")
        #expect(cache.statistics.fills == 1)
    }

    @Test func errorsReachEveryWaiterAndAreNotStored() async throws {
        let cache = MemoryCache<Int, String>(capacity: 1_000)
        let gate = Gate()
        try await confirmation(expectedCount: 1) { filled in
            let results = try await requestConcurrently(cache, gate: gate) {
                filled()
                await gate.wait()
                throw FillFailure(attempt: 1)
            }
            #expect(results.allSatisfy { result in
                if case .failure(let error) = result { return error as? FillFailure == FillFailure(attempt: 1) }
                return false
            })
        }
        #expect(cache.value(for: 7) == nil)
        let retried = try await cache.value(for: 7) { .store("second try", cost: 1) }
        #expect(retried == "second try")
    }

    @Test func doNotStoreResultsReachEveryWaiterAndAreNotStored() async throws {
        let cache = MemoryCache<Int, String>(capacity: 1_000)
        let gate = Gate()
        try await confirmation(expectedCount: 1) { filled in
            let results = try await requestConcurrently(cache, gate: gate) {
                filled()
                await gate.wait()
                return .doNotStore("not available now")
            }
            #expect(results.allSatisfy { (try? $0.get()) == "not available now" })
        }
        #expect(cache.value(for: 7) == nil)
        #expect(cache.statistics.count == 0)
        let fills = Counter()
        _ = try await cache.value(for: 7) {
            fills.increment()
            return .store("available", cost: 1)
        }
        #expect(fills.current == 1)  // asked again, not answered from the cache
    }

    @Test func callbackLookupsJoinOneFill() async throws {
        let cache = MemoryCache<Int, String>(capacity: 1_000)
        guard case .mustFill(let token) = cache.lookupOrJoin(1) else {
            Issue.record("the first miss must fill")
            return
        }
        await confirmation(expectedCount: 3) { delivered in
            for _ in 0..<3 {
                guard case .joined(let fill) = cache.lookupOrJoin(1) else {
                    Issue.record("later misses must join")
                    return
                }
                fill.onCompletion { result in
                    #expect((try? result.get()) == "tile")
                    delivered()
                }
            }
            cache.complete(token, with: .success(.store("tile", cost: 1)))
        }
        guard case .hit("tile") = cache.lookupOrJoin(1) else {
            Issue.record("the completed fill must be stored")
            return
        }
        // A handler added after completion runs at once, on this thread.
        await confirmation(expectedCount: 1) { delivered in
            token.fill.onCompletion { _ in delivered() }
        }
        // A second completion is ignored.
        cache.complete(token, with: .success(.store("other", cost: 1)))
        #expect(cache.value(for: 1) == "tile")
    }

    @Test func anAbandonedFillReleasesItsWaiters() async throws {
        let cache = MemoryCache<Int, String>(capacity: 1_000)
        var lookup: CacheLookup<Int, String>? = cache.lookupOrJoin(1)
        guard case .mustFill = lookup else {
            Issue.record("the first miss must fill")
            return
        }
        guard case .joined(let fill) = cache.lookupOrJoin(1) else {
            Issue.record("a later miss must join")
            return
        }
        lookup = nil  // drops the token without completing it
        await #expect(throws: CacheError.fillAbandoned) { try await fill.value }
        #expect(cache.value(for: 1) == nil)
        guard case .mustFill = cache.lookupOrJoin(1) else {
            Issue.record("an abandoned fill must not be joined")
            return
        }
        _ = lookup
    }

    @Test func hitsDoNotRunTheFill() async throws {
        let cache = MemoryCache<Int, String>(capacity: 1_000)
        cache.insert("stored", for: 1, cost: 1)
        try await confirmation(expectedCount: 0) { filled in
            let value = try await cache.value(for: 1) {
                filled()
                return .store("filled", cost: 1)
            }
            #expect(value == "stored")
        }
    }
}
