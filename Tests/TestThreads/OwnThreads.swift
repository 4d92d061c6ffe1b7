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
///
/// `background` runs its threads at the lowest priority (nice 19): for tests that compute for
/// seconds (a reference warp, a batch of encodes), which at the default priority would take the
/// cores from the render threads of every in-process server (nice 10, `RenderExecutor`) and make
/// other tests' renders miss their answer deadline.
public final class ThreadPerJobExecutor: TaskExecutor {
    public static let shared = ThreadPerJobExecutor(niceness: 0)
    public static let background = ThreadPerJobExecutor(niceness: 19)
    private static let marker = "ThreadPerJobExecutor"
    private let niceness: Int32

    private init(niceness: Int32) {
        self.niceness = niceness
    }

    /// Whether the calling thread is one of this executor's (marked in its thread dictionary:
    /// a new thread inherits its creator's name, a pool thread's).
    public static var isCurrent: Bool { Thread.current.threadDictionary[marker] as? Bool == true }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { [niceness] in
            Thread.current.threadDictionary[Self.marker] = true
            #if os(Linux)
            if niceness != 0 { _ = clinux_set_thread_nice(niceness) }
            #endif
            job.runSynchronously(on: executor)
        }.start()
    }
}

/// The trait that runs a test, or each test of a suite, on `ThreadPerJobExecutor`: its task from
/// its first line, its child tasks (`async let`, task groups) and their continuations. An
/// unstructured `Task {}` it starts does not inherit the preference: it runs on the pool.
public struct OwnThreads: SuiteTrait, TestTrait, TestScoping {
    let executor: ThreadPerJobExecutor
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThreads {
    /// Runs the test (each test of the suite) on threads of its own: for tests that block.
    public static var ownThreads: Self { OwnThreads(executor: .shared) }
    /// Runs the test (each test of the suite) on threads of its own at the lowest priority: for
    /// tests that compute for seconds (`ThreadPerJobExecutor.background`).
    public static var ownBackgroundThreads: Self { OwnThreads(executor: .background) }
}

/// Runs blocking work (sockets, waits for a child process) from a test that does not carry
/// `.ownThreads` on a thread of its own (`ThreadPerJobExecutor`), and returns its result: a
/// shared helper that blocks, called from any suite. (In a suite with `.ownThreads` the test
/// is on such a thread already.)
public func offPool<T: Sendable>(_ body: () throws -> T) async throws -> T {
    try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { try body() }
}
