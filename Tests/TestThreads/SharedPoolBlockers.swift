// Holding Dispatch's shared pool, for tests of work that must not wait on it.

import Dispatch

/// Runs `body` while `jobs` jobs hold Dispatch's shared global pool (`DispatchQueue.global()`,
/// which on Linux also runs Swift concurrency's default executor) blocked, and lets them go
/// when it returns: what `body` starts must not need that pool to finish. The pool adds about
/// a thread a second while its threads block, so 64 jobs hold it for the length of a test.
public func whileTheSharedPoolIsBlocked<T>(jobs: Int = 64, _ body: () throws -> T) rethrows -> T {
    let release = DispatchSemaphore(value: 0)
    for _ in 0 ..< jobs { DispatchQueue.global().async { release.wait() } }
    defer { for _ in 0 ..< jobs { release.signal() } }
    return try body()
}
