// What a transport offers a connection: one thread or serial queue that reports a descriptor's
// readiness, runs tasks sent from other threads, and fires timers. Two transports implement
// it: `EpollEventLoop` (Linux) and `DispatchEventLoop` (anywhere Dispatch runs).

/// Told which events its descriptor has; called only on its loop.
public protocol IOEventHandler: AnyObject {
    /// `events` says what the descriptor is ready for.
    func handleEvents(_ events: IOEvents)
}

/// An event loop: everything a handler is told happens on it, one thing at a time.
public protocol IOEventLoop: AnyObject, Sendable {
    /// A name for logs and thread listings.
    var name: String { get }
    /// Whether the caller runs on this loop.
    var inLoop: Bool { get }
    /// Runs `task` on the loop, after what it is doing now; once the loop has stopped, drops it.
    func execute(_ task: @escaping @Sendable () -> Void)
    /// Runs `task` on the loop once `seconds` have passed. Call on the loop.
    func schedule(after seconds: Double, _ task: @escaping () -> Void)
    /// Watches `descriptor` for `events`, calling `handler` on the loop. Call on the loop.
    func register(_ descriptor: Int32, events: IOEvents, handler: IOEventHandler) throws(SocketError)
    /// Changes the events watched on a registered descriptor. Call on the loop.
    func modify(_ descriptor: Int32, events: IOEvents)
    /// Stops watching `descriptor` and closes it once the loop no longer uses it (at once for
    /// epoll; after its sources are cancelled for Dispatch). Call on the loop.
    func close(_ descriptor: Int32)
    /// Stops the loop after what it is doing now, then calls `completion` (from any thread).
    /// Descriptors still registered are not closed: their owners do that. A second call only
    /// adds its completion.
    func stop(completion: @escaping @Sendable () -> Void)
}

extension IOEventLoop {
    /// Stops the loop without waiting for it.
    public func stop() { stop(completion: {}) }
}

/// Which implementation drives connections (`server.transport`).
public enum IOTransport: String, Sendable, CaseIterable {
    /// One epoll loop per thread (Linux only): level-triggered, no thread hand-off.
    case epoll
    /// DispatchSource read and write sources on one serial queue per loop (portable).
    case dispatch

    /// The transports this build supports: both on Linux, `dispatch` elsewhere.
    public static var available: [IOTransport] {
        #if os(Linux)
        return [.epoll, .dispatch]
        #else
        return [.dispatch]
        #endif
    }

    /// The default: epoll on Linux, Dispatch elsewhere.
    public static var platformDefault: IOTransport {
        #if os(Linux)
        return .epoll
        #else
        return .dispatch
        #endif
    }

    /// A new loop of this kind.
    public func makeLoop(name: String) throws(SocketError) -> any IOEventLoop {
        switch self {
        case .epoll:
            #if os(Linux)
            return try EpollEventLoop(name: name)
            #else
            throw .unsupported("the epoll transport exists only on Linux; use transport: dispatch")
            #endif
        case .dispatch:
            return DispatchEventLoop(name: name)
        }
    }
}
