import Testing

import TileCache

@Suite(.timeLimit(.minutes(1))) struct StressTests {
    static let keySpace = 500
    static let capacity = 2_000

    /// Every stored value is its own cost, so the stored bytes can be recounted.
    @Test(arguments: [1, 4, 16]) func mixedUseKeepsTheByteAccountExact(shardCount: Int) async throws {
        let cache = MemoryCache<Int, Int>(capacity: Self.capacity, shardCount: shardCount)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    var generator = SystemRandomNumberGenerator()
                    for step in 0..<2_000 {
                        let key = Int.random(in: 0..<Self.keySpace, using: &generator)
                        let cost = 1 + key % 40
                        switch Int.random(in: 0..<100, using: &generator) {
                        case 0..<50:
                            _ = cache.value(for: key)
                        case 50..<80:
                            let value = try? await cache.value(for: key) {
                                if step % 7 == 0 { await Task.yield() }
                                switch key % 10 {
                                case 0: throw FillFailure(attempt: step)
                                case 1: return .doNotStore(cost)
                                default: return .store(cost, cost: cost)
                                }
                            }
                            if let value { #expect(value == cost) }
                        case 80..<90:
                            cache.insert(cost, for: key, cost: cost)
                        case 90..<95:
                            cache.removeValue(for: key)
                        case 95..<99:
                            let band = worker % 4
                            cache.removeAll { $0 % 4 == band }
                        default:
                            cache.removeAll()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let statistics = cache.statistics
        var storedBytes = 0
        var storedCount = 0
        for key in 0..<Self.keySpace {
            guard let value = cache.value(for: key) else { continue }
            #expect(value == 1 + key % 40)
            storedBytes += value
            storedCount += 1
        }
        #expect(statistics.bytes == storedBytes)
        #expect(statistics.count == storedCount)
        #expect(statistics.bytes <= Self.capacity)
    }
}
