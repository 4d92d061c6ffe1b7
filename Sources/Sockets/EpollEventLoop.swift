// The epoll transport: one thread that waits on epoll and calls the handler of each ready
// descriptor, runs tasks sent from other threads, and fires timers. A connection lives on one
// loop for its whole life, so reading, parsing, answering and writing happen on that thread.

#if os(Linux)
import CLinux
import Glibc
import Synchronization

/// An epoll loop on its own thread (level-triggered).
///
/// `@unchecked Sendable`: `handlers`, `timers` and `running` are touched only on the loop's
/// thread; tasks from other threads pass through the `Mutex`-guarded `inbox`.
public final class EpollEventLoop: IOEventLoop, @unchecked Sendable {
    public let name: String
    private let epoll: Int32
    private let wakeDescriptor: Int32
    private let inbox = Mutex<[() -> Void]>([])
    private let stopCompletions = Mutex<[@Sendable () -> Void]>([])
    private let wakePending = Atomic<Bool>(false)
    private let stopRequested = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)
    private let threadID = Atomic<UInt>(0)
    private var handlers: [IOEventHandler?] = []
    private var timers: [(due: UInt64, task: () -> Void)] = []

    /// Most descriptors taken from one `epoll_wait`.
    private static let batch = 256

    /// A loop; its thread starts at once. Fails when the system is out of descriptors.
    public init(name: String) throws(SocketError) {
        self.name = name
        epoll = clinux_create()
        guard epoll >= 0 else { throw .systemCall(name: "epoll_create1", errno: errno) }
        wakeDescriptor = clinux_eventfd()
        guard wakeDescriptor >= 0 else {
            let code = errno
            _ = systemClose(epoll)
            throw .systemCall(name: "eventfd", errno: code)
        }
        _ = clinux_add(epoll, wakeDescriptor, UInt32(CLINUX_IN))
        try startThread()
    }

    public var inLoop: Bool { threadID.load(ordering: .relaxed) == UInt(pthread_self()) }

    public func execute(_ task: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.append(task) }
        if stopRequested.load(ordering: .sequentiallyConsistent) {
            inbox.withLock { $0.removeAll() }
            return
        }
        if !inLoop && !wakePending.exchange(true, ordering: .sequentiallyConsistent) {
            clinux_eventfd_signal(wakeDescriptor)
        }
    }

    public func schedule(after seconds: Double, _ task: @escaping () -> Void) {
        precondition(inLoop, "EpollEventLoop.schedule called off its thread")
        timers.append((Monotonic.nanoseconds + UInt64(max(0, seconds) * 1e9), task))
    }

    /// Stops the loop after the current batch and ends its thread. The loop's own descriptors
    /// close when the last reference to it goes, so a late `execute` or `stop` can never signal
    /// a descriptor number the system has handed to someone else.
    public func stop(completion: @escaping @Sendable () -> Void) {
        let runNow = stopCompletions.withLock { list -> Bool in
            if finished.load(ordering: .sequentiallyConsistent) { return true }
            list.append(completion)
            return false
        }
        if runNow { completion() }
        guard !stopRequested.exchange(true, ordering: .sequentiallyConsistent) else { return }
        clinux_eventfd_signal(wakeDescriptor)
    }

    deinit {
        _ = systemClose(wakeDescriptor)
        _ = systemClose(epoll)
    }

    // MARK: Registration (on the loop's thread)

    public func register(_ descriptor: Int32, events: IOEvents, handler: IOEventHandler) throws(SocketError) {
        precondition(inLoop, "EpollEventLoop.register called off its thread")
        let index = Int(descriptor)
        if index >= handlers.count { handlers.append(contentsOf: repeatElement(nil, count: index + 1 - handlers.count)) }
        guard clinux_add(epoll, descriptor, events.rawValue) == 0 else {
            throw .systemCall(name: "epoll_ctl", errno: errno)
        }
        handlers[index] = handler
    }

    public func modify(_ descriptor: Int32, events: IOEvents) {
        precondition(inLoop, "EpollEventLoop.modify called off its thread")
        _ = clinux_modify(epoll, descriptor, events.rawValue)
    }

    public func close(_ descriptor: Int32) {
        precondition(inLoop, "EpollEventLoop.close called off its thread")
        let index = Int(descriptor)
        if index < handlers.count, handlers[index] != nil {
            handlers[index] = nil
            _ = clinux_remove(epoll, descriptor)
        }
        _ = systemClose(descriptor)
    }

    // MARK: The thread

    private func startThread() throws(SocketError) {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { context in
            let loop = Unmanaged<EpollEventLoop>.fromOpaque(context!).takeRetainedValue()
            loop.run()
            return nil
        }, context)
        guard rc == 0 else {
            Unmanaged<EpollEventLoop>.fromOpaque(context).release()
            throw .systemCall(name: "pthread_create", errno: rc)
        }
        pthread_detach(thread)
    }

    private func run() {
        threadID.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
        clinux_name_thread(name)
        var descriptors = [Int32](repeating: 0, count: Self.batch)
        var events = [UInt32](repeating: 0, count: Self.batch)
        while !stopRequested.load(ordering: .relaxed) {
            let count = clinux_wait(epoll, &descriptors, &events, Int32(Self.batch), waitMilliseconds())
            for i in 0 ..< Int(max(0, count)) {
                let descriptor = descriptors[i]
                if descriptor == wakeDescriptor {
                    clinux_eventfd_drain(wakeDescriptor)
                    continue
                }
                let index = Int(descriptor)
                if index < handlers.count, let handler = handlers[index] {
                    handler.handleEvents(IOEvents(rawValue: events[i]))
                }
            }
            runDueTimers()
            runTasks()
        }
        // Drop what refers back to the loop (connections, tasks), so it can be freed.
        handlers.removeAll()
        timers.removeAll()
        inbox.withLock { $0.removeAll() }
        let completions = stopCompletions.withLock { list in
            finished.store(true, ordering: .sequentiallyConsistent)
            defer { list.removeAll() }
            return list
        }
        for completion in completions { completion() }
    }

    /// How long `epoll_wait` may sleep: until the next timer, 0 with tasks waiting.
    private func waitMilliseconds() -> Int32 {
        if inbox.withLock({ !$0.isEmpty }) { return 0 }
        guard let next = timers.lazy.map(\.due).min() else { return -1 }
        let now = Monotonic.nanoseconds
        guard next > now else { return 0 }
        return Int32(min((next - now + 999_999) / 1_000_000, 60_000))
    }

    private func runTasks() {
        wakePending.store(false, ordering: .sequentiallyConsistent)
        // Taken whole, leaving an empty array: no allocation on the (usual) pass with no tasks,
        // and none to keep the old capacity while `tasks` still holds the buffer.
        let tasks = inbox.withLock { inbox -> [() -> Void] in
            guard !inbox.isEmpty else { return [] }
            defer { inbox = [] }
            return inbox
        }
        for task in tasks { task() }
    }

    private func runDueTimers() {
        guard !timers.isEmpty else { return }
        let now = Monotonic.nanoseconds
        let due = timers.filter { $0.due <= now }
        guard !due.isEmpty else { return }
        timers.removeAll { $0.due <= now }
        for timer in due { timer.task() }
    }
}
#endif
