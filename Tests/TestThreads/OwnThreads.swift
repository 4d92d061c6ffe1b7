// Tests that block (sockets, sleeps, child processes) run on threads of their own, not on
// Swift concurrency's shared pool.

#if os(Linux)
import CLinux
#endif
import Foundation
import Testing

/// Runs every job it is given on a new thread of its own, which ends with the job.
///
/// On Linux, Swift concurrency's default executor is a pool of as many threads as cores, shared
/// by every test of the run, and it adds only about a thread a second while its threads block.
/// A test that blocks one of them (a client's `recv`, a `usleep`, waiting for a child process)
/// holds up every other test's tasks meanwhile; on two cores, two such tests stop the whole run,
/// and a test whose deadline started before it waited fails for a reason not its own. Its own
/// thread makes a blocking test cost only itself. A job here is a task's stretch between two
/// suspensions: a thread each is cheap next to the socket round trips these tests make.
public final class ThreadPerJobExecutor: TaskExecutor {
    public static let shared = ThreadPerJobExecutor()
    private static let marker = "ThreadPerJobExecutor"

    /// Whether the calling thread is one of this executor's (marked in its thread dictionary:
    /// a new thread inherits its creator's name, a pool thread's).
    public static var isCurrent: Bool { Thread.current.threadDictionary[marker] as? Bool == true }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread {
            Thread.current.threadDictionary[Self.marker] = true
            job.runSynchronously(on: executor)
        }.start()
    }
}

/// The trait that runs a test, or each test of a suite, on `ThreadPerJobExecutor`: its task from
/// its first line, its child tasks (`async let`, task groups) and their continuations. An
/// unstructured `Task {}` it starts does not inherit the preference: it runs on the pool.
public struct OwnThreads: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OwnThreads {
    /// Runs the test (each test of the suite) on threads of its own: for tests that block.
    public static var ownThreads: Self { OwnThreads() }
}

/// Runs blocking work (sockets, waits for a child process) from a test that does not carry
/// `.ownThreads` on a thread of its own (`ThreadPerJobExecutor`), and returns its result: a
/// shared helper that blocks, called from any suite. (In a suite with `.ownThreads` the test
/// is on such a thread already.)
public func offPool<T: Sendable>(_ body: () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try body() }
}

/// Runs `body` on the calling thread at the lowest priority (nice 19), then gives the thread the
/// default priority back: for a test that computes for seconds, which at the default priority
/// would take the cores from the render threads of the servers other tests run in-process
/// (nice 10, `RenderExecutor`) and make their renders miss the answer deadline. `body` must not
/// start threads or queue work on Dispatch: a thread started from it would inherit the nice
/// value. Call it on a thread of the test's own (`.ownThreads`), which ends with its job: where
/// giving the priority back needs a privilege the process lacks, nothing else stays low.
public func atLowestPriority<T>(_ body: () throws -> T) rethrows -> T {
    #if os(Linux)
    _ = clinux_set_thread_nice(19)
    defer { _ = clinux_set_thread_nice(0) }
    #endif
    return try body()
}
