import Synchronization
import Testing

import TileCache

/// A one-shot barrier for tests: `wait()` suspends until `open()`.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Polls `condition` until it holds; the caller's `.timeLimit` bounds the wait.
func eventually(_ condition: () -> Bool) async throws {
    while !condition() {
        try await Task.sleep(for: .milliseconds(1))
    }
}

/// An error a fill throws on purpose.
struct FillFailure: Error, Equatable {
    var attempt: Int
}

/// A counter shared with fills.
final class Counter: Sendable {
    private let value = Mutex(0)

    @discardableResult
    func increment() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }

    var current: Int { value.withLock { $0 } }
}
