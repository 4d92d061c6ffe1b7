// Both transports' loops: tasks from other threads, timers, and readiness of a registered descriptor.

#if canImport(Glibc)
import Glibc
#endif
import Sockets
import Synchronization
import Testing

/// Records what a loop tells it, and on which thread.
private final class Recorder: IOEventHandler, @unchecked Sendable {
    let loop: any IOEventLoop
    let seen = Mutex<[(events: IOEvents, inLoop: Bool)]>([])

    init(loop: any IOEventLoop) { self.loop = loop }

    func handleEvents(_ events: IOEvents) {
        let inLoop = loop.inLoop
        seen.withLock { $0.append((events, inLoop)) }
    }

    var count: Int { seen.withLock { $0.count } }
}

/// Runs `body` on `loop` and waits for its result.
private func onLoop<T: Sendable>(_ loop: any IOEventLoop, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        loop.execute { continuation.resume(returning: body()) }
    }
}

/// Polls `condition` for up to two seconds.
private func eventually(_ condition: () -> Bool) async throws -> Bool {
    for _ in 0 ..< 200 {
        if condition() { return true }
        try await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

/// A second descriptor on the loop that answers "has the loop polled since?": each `pass()`
/// makes it readable and waits until the loop has told its handler (which reads the byte). A
/// level-triggered descriptor of the same loop that is ready, and watched, is reported in that
/// poll or an earlier one, so once `pass()` returns its silence means it was not ready or not
/// watched: a negative check waits on this condition instead of sleeping.
private final class Fence: IOEventHandler, @unchecked Sendable {
    let loop: any IOEventLoop
    let mine: Int32
    let peer: Int32
    let passes = Mutex(0)

    init(loop: any IOEventLoop) async throws {
        self.loop = loop
        (mine, peer) = socketPair()
        let registered = await onLoop(loop) { [mine] () -> Bool in
            (try? loop.register(mine, events: [.readable], handler: self)) != nil
        }
        guard registered else { throw FenceError() }
    }

    struct FenceError: Error {}

    func handleEvents(_ events: IOEvents) {
        var byte: UInt8 = 0
        if read(mine, &byte, 1) == 1 { passes.withLock { $0 += 1 } }
    }

    /// Writes a byte and waits until the loop has handed it to the handler; whether it did.
    func pass() async throws -> Bool {
        let before = passes.withLock { $0 }
        _ = write(peer, "f", 1)
        return try await eventually { passes.withLock { $0 } > before }
    }

    /// Stops watching and closes both ends.
    func release() async {
        await onLoop(loop) { [loop, mine] in loop.close(mine) }
        close(peer)
    }
}

/// Whether the `Canary` it was given to is gone: a task the loop drops releases what it
/// captured at once, a task it keeps holds it, so a dropped task is a condition to wait on.
private final class ReleaseWatch: Sendable {
    private let released = Mutex(false)
    var isReleased: Bool { released.withLock { $0 } }
    fileprivate func note() { released.withLock { $0 = true } }
}

private final class Canary: Sendable {
    let watch: ReleaseWatch
    init(_ watch: ReleaseWatch) { self.watch = watch }
    deinit { watch.note() }
}

/// Gives `loop` the task `body`, and returns what tells when the loop let go of it.
private func executeWatched(_ loop: any IOEventLoop, _ body: @escaping @Sendable () -> Void) -> ReleaseWatch {
    let watch = ReleaseWatch()
    let canary = Canary(watch)
    loop.execute { withExtendedLifetime(canary) { body() } }
    return watch
}

private func socketPair() -> (Int32, Int32) {
    var fds: [Int32] = [0, 0]
    let rc = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
    precondition(rc == 0, "socketpair failed")
    return (fds[0], fds[1])
}

@Suite struct EventLoopTests {
    @Test(arguments: IOTransport.available)
    func tasksFromOtherThreadsRunOnTheLoopInOrder(transport: IOTransport) async throws {
        let loop = try transport.makeLoop(name: "test-tasks")
        defer { loop.stop() }
        #expect(!loop.inLoop)
        let order = Mutex<[Int]>([])
        let allOnLoop = Mutex(true)
        for i in 0 ..< 100 {
            loop.execute {
                let inLoop = loop.inLoop
                allOnLoop.withLock { $0 = $0 && inLoop }
                order.withLock { $0.append(i) }
            }
        }
        #expect(try await eventually { order.withLock { $0.count } == 100 })
        #expect(order.withLock { $0 } == Array(0 ..< 100))
        #expect(allOnLoop.withLock { $0 })
    }

    @Test(arguments: IOTransport.available)
    func timersFireAfterTheirDelayInDueOrder(transport: IOTransport) async throws {
        let loop = try transport.makeLoop(name: "test-timers")
        defer { loop.stop() }
        let fired = Mutex<[(String, UInt64)]>([])
        let start = Monotonic.nanoseconds
        loop.execute {
            loop.schedule(after: 0.15) { fired.withLock { $0.append(("late", Monotonic.nanoseconds)) } }
            loop.schedule(after: 0.05) { fired.withLock { $0.append(("early", Monotonic.nanoseconds)) } }
        }
        #expect(try await eventually { fired.withLock { $0.count } == 2 })
        let result = fired.withLock { $0 }
        #expect(result.map(\.0) == ["early", "late"])
        #expect(result[0].1 - start >= 50_000_000)
        #expect(result[1].1 - start >= 150_000_000)
    }

    @Test(arguments: IOTransport.available)
    func aRegisteredDescriptorReportsReadableUntilWatchingStops(transport: IOTransport) async throws {
        let loop = try transport.makeLoop(name: "test-ready")
        defer { loop.stop() }
        let (mine, peer) = socketPair()
        let recorder = Recorder(loop: loop)
        let registered = await onLoop(loop) { () -> Bool in
            (try? loop.register(mine, events: [.readable, .readHangUp], handler: recorder)) != nil
        }
        #expect(registered)
        let fence = try await Fence(loop: loop)
        #expect(try await fence.pass(), "the loop polled after the registration")
        #expect(recorder.count == 0, "nothing to read yet, so no event")

        _ = write(peer, "x", 1)
        #expect(try await eventually { recorder.count > 0 })
        let first = recorder.seen.withLock { $0[0] }
        #expect(first.events.contains(.readable))
        #expect(first.inLoop)

        // Level-triggered: unread data keeps reporting until the interest is dropped.
        #expect(try await eventually { recorder.count > 3 })
        await onLoop(loop) { loop.modify(mine, events: []) }
        let afterModify = recorder.count
        #expect(try await fence.pass(), "the loop polled since")
        #expect(try await fence.pass(), "and again")
        #expect(recorder.count == afterModify, "unread data, but no longer watched: no event")

        // Watching again, the peer's close is reported (epoll: as a read hang-up; Dispatch: as
        // readable, where a read then finds the end of file).
        await onLoop(loop) { loop.modify(mine, events: [.readable, .readHangUp]) }
        let beforeClose = recorder.count
        close(peer)
        let hangUp: IOEvents = transport == .epoll ? .readHangUp : .readable
        #expect(try await eventually {
            recorder.seen.withLock { $0.count > beforeClose && $0.last!.events.contains(hangUp) }
        })

        // Closing through the loop stops the events.
        await onLoop(loop) { loop.close(mine) }
        let afterClose = recorder.count
        #expect(try await fence.pass(), "the loop polled since")
        #expect(try await fence.pass(), "and again")
        #expect(recorder.count == afterClose, "closed: no event")
        await fence.release()
    }

    @Test(arguments: IOTransport.available)
    func stopCallsItsCompletionOnceTheLoopHasStopped(transport: IOTransport) async throws {
        let loop = try transport.makeLoop(name: "test-stop-completion")
        let ran = Mutex(0)
        loop.execute { ran.withLock { $0 += 1 } }
        #expect(try await eventually { ran.withLock { $0 } == 1 })
        await withCheckedContinuation { continuation in loop.stop { continuation.resume() } }
        let task = executeWatched(loop) { ran.withLock { $0 += 1 } }
        #expect(try await eventually { task.isReleased }, "the stopped loop let go of the task")
        #expect(ran.withLock { $0 } == 1, "a stopped loop runs no task")
        // A second stop still completes.
        await withCheckedContinuation { continuation in loop.stop { continuation.resume() } }
    }

    /// Regression: a stopped loop closed its eventfd at once, and a later `stop()` or
    /// `execute` wrote 8 bytes into whatever socket had been given that descriptor number
    /// (a client then sent "\u{1}\0\0\0\0\0\0\0GET …" and got 400).
    #if os(Linux)
    @Test func aStoppedLoopDropsTasksAndKeepsItsDescriptorsUntilReleased() async throws {
        let loop = try EpollEventLoop(name: "test-stop")
        let ran = Mutex(0)
        loop.execute { ran.withLock { $0 += 1 } }
        #expect(try await eventually { ran.withLock { $0 } == 1 })
        await withCheckedContinuation { continuation in loop.stop { continuation.resume() } }
        // The loop's thread has ended; its eventfd is still its own: a socket opened now gets
        // another number...
        let (a, b) = socketPair()
        defer { close(a); close(b) }
        // ...and signalling the stopped loop again (each call writes, if it does, before it
        // returns) leaves that socket untouched.
        loop.stop()
        let task = executeWatched(loop) { ran.withLock { $0 += 1 } }
        #expect(try await eventually { task.isReleased }, "the stopped loop let go of the task")
        #expect(ran.withLock { $0 } == 1)
        for end in [a, b] {
            var byte: UInt8 = 0
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL, 0) | O_NONBLOCK)
            #expect(read(end, &byte, 1) == -1, "nothing was written into the new socket pair")
        }
    }
    #endif
}
