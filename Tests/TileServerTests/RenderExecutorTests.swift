// The server's renders run on threads of its own: not held up by whatever else holds Swift
// concurrency's shared pool (on Linux, Dispatch's global one).

import Dispatch
import Foundation
import Synchronization
import Testing
import TileHTTP
@testable import TileServer
import TestThreads

/// The calling thread's name, as the kernel knows it.
private func threadName() -> String {
    ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
}

/// Values noted from any thread, in the order noted.
private final class Noted<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func note(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

@Suite(.ownThreads) struct RenderExecutorTests {
    /// Jobs run in the order they came, on the executor's own threads, and a task's child
    /// tasks run there too.
    #if os(Linux)
    @Test func tasksAndTheirChildrenRunOnItsThreads() async {
        let executor = RenderExecutor(threads: 1, name: "test-render")
        let order = Noted<Int>()
        let names = await Task(executorPreference: executor) { () -> [String] in
            await withTaskGroup(of: String.self) { group in
                for index in 0 ..< 4 {
                    group.addTask {
                        order.note(index)
                        return threadName()
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }.value
        #expect(names == Array(repeating: "test-render-0", count: 4))
        #expect(order.all == [0, 1, 2, 3], "one thread takes the jobs first come, first run")
    }
    #endif

    /// With Dispatch's shared pool taken by blocked jobs (test clients waiting for answers, a
    /// program's own blocking work), a derived tile (`@2x`) is still rendered and answered at
    /// once: on the default executor it waited for the pool, about a second a thread.
    @Test func aRenderIsAnsweredWhileTheSharedPoolIsBlocked() throws {
        let folder = TemporaryFolder()
        let service = try Fixtures.service(folder: folder)
        let request = try HTTPRequest(method: .get, target: "/world/1/0/0@2x.png", headers: [.host: "localhost:8080"])
        let answered = DispatchSemaphore(value: 0)
        let status = Mutex<HTTPStatus?>(nil)
        let (now, atOnce) = whileTheSharedPoolIsBlocked {
            let now = service.respond(to: request) { response in
                status.withLock { $0 = response.status }
                answered.signal()
            }
            return (now, now != nil || answered.wait(timeout: .now() + 5) == .success)
        }
        #expect(now == nil, "a retina tile is rendered, not answered on the spot")
        #expect(atOnce, "the render waited behind the shared pool's blocked jobs")
        #expect(status.withLock { $0 } == .ok)
    }
}
