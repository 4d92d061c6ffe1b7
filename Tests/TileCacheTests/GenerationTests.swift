import Testing

import TileCache

/// A fill that started before its key was cleared must not be stored, and must
/// not be joined by lookups made after the clear.
@Suite(.timeLimit(.minutes(1))) struct GenerationTests {
    private func mustFill(_ lookup: CacheLookup<Int, String>) -> CacheFillToken<Int, String>? {
        guard case .mustFill(let token) = lookup else {
            Issue.record("expected to be asked to fill, got \(lookup)")
            return nil
        }
        return token
    }

    @Test func aFillStartedBeforeAClearIsNotStored() async throws {
        let cache = MemoryCache<Int, String>(capacity: 1_000)
        let stale = Gate()
        let staleStarted = Gate()
        let early = Task {
            try await cache.value(for: 1) {
                staleStarted.open()
                await stale.wait()
                return .store("before clear", cost: 1)
            }
        }
        await staleStarted.wait()
        cache.removeAll()
        // A lookup after the clear starts its own fill instead of joining the stale one.
        let late = try await cache.value(for: 1) { .store("after clear", cost: 1) }
        #expect(late == "after clear")
        stale.open()
        #expect(try await early.value == "before clear")  // its caller still gets it
        #expect(cache.value(for: 1) == "after clear")  // but it did not overwrite
    }

    @Test func aStaleFillCompletingAloneIsNotStored() throws {
        let cache = MemoryCache<Int, String>(capacity: 1_000)
        let early = try #require(mustFill(cache.lookupOrJoin(1)))
        cache.removeAll()
        cache.complete(early, with: .success(.store("stale", cost: 1)))
        #expect(cache.value(for: 1) == nil)
        let late = try #require(mustFill(cache.lookupOrJoin(1)))
        cache.complete(late, with: .success(.store("fresh", cost: 1)))
        #expect(cache.value(for: 1) == "fresh")
    }

    @Test func waitersOfAStaleFillStillGetItsValue() async throws {
        let cache = MemoryCache<Int, String>(capacity: 1_000)
        let early = try #require(mustFill(cache.lookupOrJoin(1)))
        guard case .joined(let earlyFill) = cache.lookupOrJoin(1) else {
            Issue.record("a second miss must join")
            return
        }
        cache.removeValue(for: 1)
        let late = try #require(mustFill(cache.lookupOrJoin(1)))
        cache.complete(early, with: .success(.store("stale", cost: 1)))
        #expect(try await earlyFill.value == "stale")
        #expect(cache.value(for: 1) == nil)
        cache.complete(late, with: .success(.store("fresh", cost: 1)))
        #expect(cache.value(for: 1) == "fresh")
    }

    @Test func aPartialClearRetiresOnlyTheFillsItCovers() throws {
        let cache = MemoryCache<Int, String>(capacity: 1_000)
        let covered = try #require(mustFill(cache.lookupOrJoin(1)))
        let spared = try #require(mustFill(cache.lookupOrJoin(2)))
        cache.removeAll { $0 == 1 }
        guard case .joined = cache.lookupOrJoin(2) else {
            Issue.record("the spared fill must still be joined")
            return
        }
        cache.complete(covered, with: .success(.store("stale", cost: 1)))
        cache.complete(spared, with: .success(.store("kept", cost: 1)))
        #expect(cache.value(for: 1) == nil)
        #expect(cache.value(for: 2) == "kept")
    }

    @Test func anInsertRetiresAnOlderFill() throws {
        let cache = MemoryCache<Int, String>(capacity: 1_000)
        let early = try #require(mustFill(cache.lookupOrJoin(1)))
        cache.insert("inserted", for: 1, cost: 1)
        cache.complete(early, with: .success(.store("older", cost: 1)))
        #expect(cache.value(for: 1) == "inserted")
    }
}
