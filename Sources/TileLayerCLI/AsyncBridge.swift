import Dispatch
import Synchronization

/// Runs async work from a synchronous `ParsableCommand.run()` on the main thread: the work runs
/// in a detached task and the main thread (not a Swift-concurrency thread) waits for it.
/// Tests call the commands' `async` entry points directly instead.
enum AsyncBridge {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }
}
