import Testing
import TestThreads

/// `offPool`, called from a suite on the shared pool (no `.ownThreads`), runs its body on a
/// thread of its own and hands back what it returns or throws.
@Suite struct OffPoolTests {
    private struct Refused: Error {}

    @Test func theBodyRunsOnAThreadOfItsOwn() async throws {
        #expect(try await offPool { ThreadPerJobExecutor.isCurrent })
        await #expect(throws: Refused.self) { try await offPool { throw Refused() } }
    }
}

/// A suite with `.ownThreads` runs its tests, from their first line and after each await, and
/// their child tasks, on threads of their own.
@Suite(.ownThreads) struct OwnThreadsTests {
    @Test func aTestAndItsChildrenRunOnThreadsOfTheirOwn() async throws {
        #expect(ThreadPerJobExecutor.isCurrent, "from its first line")
        try await Task.sleep(for: .milliseconds(1))
        #expect(ThreadPerJobExecutor.isCurrent, "after an await")
        async let child = ThreadPerJobExecutor.isCurrent
        #expect(await child, "a child task")
    }
}
